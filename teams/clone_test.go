package teams

import "slices"

// clone returns a deep copy of r (its per-slot tables are slices), for the tests that
// check that a refused operation leaves no trace.
func (r *Registry) clone() *Registry {
	c := *r
	c.groups, c.players, c.history = slices.Clone(r.groups), slices.Clone(r.players), slices.Clone(r.history)
	return &c
}

// same reports whether r and o hold the same state, every slot included.
func (r *Registry) same(o *Registry) bool {
	return r.rev == o.rev && r.teams == o.teams && r.nteams == o.nteams &&
		slices.Equal(r.groups, o.groups) && slices.Equal(r.players, o.players) && slices.Equal(r.history, o.history)
}
