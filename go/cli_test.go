package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// buildCLI builds cmd/overturn-fingerprint once per test binary.
func buildCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "overturn-go-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "overturn-fingerprint")
		// An ordinary build: the race detector's binary starts ~10x slower, and the
		// jobs' goroutines are raced in process by TestCLIJobsInProcess.
		out, err := exec.Command("go", "build", "-o", cliPath, "./cmd/overturn-fingerprint").CombinedOutput()
		if err != nil {
			cliErr = errors.New(string(out))
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliPath
}

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

func runCLI(t *testing.T, env []string, args ...string) (string, string, int) {
	cmd := exec.Command(buildCLI(t), args...)
	cmd.Dir = ".." // the vectors' paths are from the repository root
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// vectors/cli.vectors.json: the same bytes, stderr and exit status as the Node and Python CLIs.
func TestCLIVectors(t *testing.T) {
	var file struct {
		Cases []struct {
			ID             string
			Args           []string
			Stdout, Stderr string
			Exit           int
		}
	}
	readVectors(t, "cli.vectors.json", &file)
	fill := strings.NewReplacer("{prog}", cliProg, "{pkg}", abi.PACKAGE_VERSION)
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			out, errs, code := runCLI(t, nil, c.Args...)
			if out != fill.Replace(c.Stdout) || errs != fill.Replace(c.Stderr) || code != c.Exit {
				t.Errorf("got stdout %q stderr %q exit %d\nwant stdout %q stderr %q exit %d",
					out, errs, code, fill.Replace(c.Stdout), fill.Replace(c.Stderr), c.Exit)
			}
		})
	}
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// bigRecording: n lines (line bad is not JSON) and the output expected, from hand-written preimages.
func bigRecording(n, bad int, name string) (string, string) {
	var text, want strings.Builder
	pad := strings.Repeat("x", 40)
	for i := 0; i < n; i++ {
		if i == bad {
			text.WriteString("{bad\n")
			continue
		}
		tool := fmt.Sprintf("%s%d", name, i%3)
		fmt.Fprintf(&text, `{"name":"%s","args":{"i":%d,"pad":"%s","rid":"r%d"},"ignoreArgs":["rid"]}`+"\n", tool, i, pad, i)
		fmt.Fprintf(&want, "%s  %s\n", sha(fmt.Sprintf("tool_call\n%s\n{\"i\":%d,\"pad\":\"%s\"}", tool, i, pad)), tool)
	}
	return text.String(), want.String()
}

// --jobs 1, 2, 3 over several chunks dealt in turn to this job and the workers: every line, in input order, counts merged.
func TestCLIJobs(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.jsonl")
	text, want := bigRecording(40_000, 12_345, "t")
	os.WriteFile(p, []byte(text), 0o644)
	tr := filepath.Join(dir, "trace.json")
	for _, jobs := range []string{"1", "2", "3"} {
		out, errs, code := runCLI(t, []string{"OVERTURN_FINGERPRINT_JOBS_MIN_BYTES=0", "OVERTURN_FINGERPRINT_JOBS_DEAL=1", "OVERTURN_FINGERPRINT_JOBS_TRACE=" + tr}, "--jobs", jobs, p)
		wantErr := p + `:12346: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")` + "\n1 of 40000 lines failed\n"
		if out != want || errs != wantErr || code != 1 {
			t.Errorf("--jobs %s: stdout equal %v, stderr %q, exit %d", jobs, out == want, errs, code)
		}
		b, _ := os.ReadFile(tr)
		var got struct {
			Workers int
			Chunks  []int
		}
		json.Unmarshal(b, &got)
		if got.Workers != len(got.Chunks)-1 || got.Workers+1 != map[string]int{"1": 1, "2": 2, "3": 3}[jobs] {
			t.Errorf("--jobs %s: trace %s", jobs, b)
		}
		for _, c := range got.Chunks {
			if c == 0 {
				t.Errorf("--jobs %s: a job ran no chunk: %s", jobs, b)
			}
		}
	}
}

// The Go CLI equals the Node CLI byte for byte (when dist/cli.js is built): a 20,000-line
// recording with --jobs 2 and its verify/explain, and replay with --tools.
func TestCLISameAsNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if _, err2 := os.Stat("../dist/cli.js"); err != nil || err2 != nil {
		t.Skip("node or dist/cli.js missing (npx tsup builds it)")
	}
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.jsonl")
	text, _ := bigRecording(20_000, 777, "n")
	os.WriteFile(rec, []byte(text), 0o644)
	tools := filepath.Join(dir, "tools.json")
	os.WriteFile(tools, []byte(`{"n1":{"ignoreArgs":["pad"]},"n2":{"matchOn":["i"]}}`), 0o644)
	calls := filepath.Join(dir, "calls.jsonl")
	os.WriteFile(calls, []byte(`{"name":"n1","args":{"i":1,"pad":"y"}}`+"\n"+`{"name":"n2","args":{"i":5}}`+"\n{\n"+`{"name":"zz","args":{}}`+"\n"), 0o644)
	for _, args := range [][]string{
		{"--jobs", "2", rec}, {"verify", "--jobs", "2", rec}, {"explain", "--json", "--jobs", "2", rec},
		{"replay", calls, "--in", rec, "--tools", tools}, {"replay", "--json", calls, "--in", rec},
	} {
		env := []string{"OVERTURN_FINGERPRINT_JOBS_MIN_BYTES=0"}
		out, errs, code := runCLI(t, env, args...)
		cmd := exec.Command(node, append([]string{"dist/cli.js"}, args...)...)
		cmd.Dir, cmd.Env = "..", append(os.Environ(), env...)
		var nout, nerr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &nout, &nerr
		ncode := 0
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatal(err)
			}
			ncode = ee.ExitCode()
		}
		if out != nout.String() || errs != nerr.String() || code != ncode {
			t.Errorf("%v: Go and Node differ: stdout equal %v, stderr %q vs %q, exit %d vs %d",
				args, out == nout.String(), errs, nerr.String(), code, ncode)
		}
	}
}

// The jobs' goroutines in this process, so that -race sees them.
func TestCLIJobsInProcess(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.jsonl")
	text, want := bigRecording(30_000, -1, "r")
	os.WriteFile(p, []byte(text), 0o644)
	t.Setenv("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES", "0")
	var out, errs bytes.Buffer
	if code := runCLIWith([]string{"--jobs", "3", p}, &out, &errs); code != 0 || out.String() != want || errs.Len() != 0 {
		t.Errorf("exit %d, stdout equal %v, stderr %q", code, out.String() == want, errs.String())
	}
}

// Standard input is read in the pieces the core asks for (64 KiB, as a pipe gives them), so a bad
// line's message lands among the fingerprints where the Node CLI puts it when both go to one stream.
func TestCLIStdinInterleavesAsNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if _, err2 := os.Stat("../dist/cli.js"); err != nil || err2 != nil {
		t.Skip("node or dist/cli.js missing (npx tsup builds it)")
	}
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	text, _ := bigRecording(20_000, 777, "s")
	os.WriteFile(rec, []byte(text), 0o644)
	both := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = ".."
		in, _ := os.Open(rec)
		defer in.Close()
		cmd.Stdin = in
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	g, n := both(buildCLI(t), "-"), both(node, "dist/cli.js", "-")
	if g != n || !strings.Contains(g, ":778: invalid JSON") || strings.Index(g, ":778:") < 1000 {
		t.Errorf("Go and Node differ: the message at %d vs %d", strings.Index(g, ":778:"), strings.Index(n, ":778:"))
	}
}
