module github.com/arbitergo/arbiter

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/pion/logging v0.2.4
	github.com/pion/transport/v3 v3.1.1
	github.com/stretchr/testify v1.12.1
	golang.org/x/exp v0.0.0-20261113113407-e3970619a1a4
	golang.org/x/net v0.62.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
