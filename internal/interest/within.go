package interest

// MaxWithinCells is the most grid cells one Within query visits; a larger circle walks
// every bucket of the grid instead.
const MaxWithinCells = 64

// Within appends the ids placed within r metres of (x, y), in the plane, to dst: the
// players a point's event reaches (a blast heard up to the stream's reach). The order is
// the grid's (deterministic, not ascending). A non-finite point or a negative or NaN
// radius appends nothing.
func (m *Manager) Within(dst []ID, x, y, r float32) []ID {
	if !finite(x) || !finite(y) || !(r >= 0) || !finite(r) {
		return dst
	}
	r2 := r * r
	cx0, cy0 := m.cellOf(x-r, y-r)
	cx1, cy1 := m.cellOf(x+r, y+r)
	if int64(cx1-cx0+1)*int64(cy1-cy0+1) > MaxWithinCells {
		for _, h := range m.heads {
			for q := h; q != none; q = m.spots[q].next {
				if o := &m.spots[q]; within(o.x-x, o.y-y, r2) {
					dst = append(dst, ID(q))
				}
			}
		}
		return dst
	}
	for cy := cy0; cy <= cy1; cy++ {
		for cx := cx0; cx <= cx1; cx++ {
			for q := m.heads[m.hash(cx, cy)]; q != none; q = m.spots[q].next {
				if o := &m.spots[q]; o.cx == cx && o.cy == cy && within(o.x-x, o.y-y, r2) {
					dst = append(dst, ID(q))
				}
			}
		}
	}
	return dst
}

func within(dx, dy, r2 float32) bool { return dx*dx+dy*dy <= r2 }
