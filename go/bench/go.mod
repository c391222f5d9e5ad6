module github.com/overturn/fingerprint/go/bench

go 1.26

require github.com/overturn/fingerprint/go v0.0.0

require (
	github.com/gowebpki/jcs v1.0.2
	github.com/tetratelabs/wazero v1.12.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
)

replace github.com/overturn/fingerprint/go => ../
