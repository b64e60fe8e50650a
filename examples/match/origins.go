package match

// measureOrigins takes into the report what the server measured of an honest player's
// accepted shots and projectiles against its accepted path (refserver.Reach).
func (m *Match) measureOrigins(p *player) {
	if p.cheat != nil {
		return
	}
	r, err := m.server.Reach(p.id)
	if err != nil {
		return
	}
	o := &m.report.Origins
	o.ShotOnFoot = max(o.ShotOnFoot, float64(r.ShotOnFoot))
	o.ShotSeated = max(o.ShotSeated, float64(r.ShotSeated))
	o.Launch = max(o.Launch, float64(r.Launch))
	o.Thrown = max(o.Thrown, float64(r.Thrown))
	o.LostLaunch = max(o.LostLaunch, float64(r.LostLaunch))
}
