module example.com/hostgame

go 1.26.0

require github.com/arbitergo/arbiter v0.0.0

require (
	github.com/cockroachdb/datadriven v1.0.3 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/exp v0.0.0-20261113113407-e3970619a1a4 // indirect
)

replace github.com/arbitergo/arbiter => ../..
