//go:build !linux

package hugepages

// Advise does nothing here: huge pages for the Go heap are a Linux tuning.
func Advise() (Stats, error) { return Stats{}, ErrUnsupported }
