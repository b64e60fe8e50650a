package refserver

// Weapons the package's internal tests and benchmarks use.
const (
	deagle  uint8 = 24
	shotgun uint8 = 25
	m4      uint8 = 31
)
