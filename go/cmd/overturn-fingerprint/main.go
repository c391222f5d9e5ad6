// Command overturn-fingerprint prints the fingerprints of recorded tool
// calls (run, explain, verify, why, replay): the same bytes, stderr and exit
// status as the Node and Python CLIs. `overturn-fingerprint --help` says more.
package main

import (
	"os"

	fingerprint "github.com/overturn/fingerprint/go"
)

func main() {
	os.Exit(fingerprint.RunCLI(os.Args[1:]))
}
