package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The CLI is a thin shell over the core's CLI engine (assembly/cli/): the
// core reads the arguments and makes the plan (cli/plan.ts: which files, in
// which step, how many workers and how they share the chunks), splits and
// reads the lines, fingerprints and formats every byte printed, words read
// errors and the progress line, and returns the exit status. This file moves
// bytes: argv and the sizes at its paths in, files and stdin in chunks of
// whole lines, stdout/stderr out, the terminal, a closed pipe, and the
// worker goroutines the plan asks for (cli_jobs.go), each with its own
// engine instance.

const cliProg = "overturn-fingerprint"

type cliResult struct {
	out, err, state []byte
	lines           int
	code            int32
}

// cliStep runs one step of the engine (assembly/cli/steps.ts lists the steps and their parts).
func cliStep(in *instance, step string, name, match, ignore, args []byte) (cliResult, error) {
	r, err := in.do(context.Background(), abi.F_CLI, [][]byte{[]byte(step), name, match, ignore}, textArg{b: args}, nil)
	if err != nil {
		return cliResult{}, err
	}
	w := r.words
	o, e, s := w[0], w[0]+w[1], w[0]+w[1]+w[2]
	return cliResult{out: r.text[:o], err: r.text[o:e], state: r.text[e:s], lines: int(w[3]), code: int32(w[4])}, nil
}

type cli struct {
	main           *instance
	stdout, stderr io.Writer
	progress, tty  bool // stderr, stdout: a terminal
	started        time.Time
	argv, facts    []byte
	tools          []byte
	state          []byte
	stop           bool
}

// RunCLI runs overturn-fingerprint with args (without the program name) and
// returns its exit status: the same bytes, stderr and status as the Node CLI.
func RunCLI(args []string) int {
	signal.Ignore(syscall.SIGPIPE) // a closed stdout is an EPIPE error (write), not a kill
	return runCLIWith(args, os.Stdout, os.Stderr)
}

func runCLIWith(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok {
				panic(r)
			}
			fmt.Fprintf(stderr, "%s: %v\n", cliProg, err)
			code = 2
		}
	}()
	in, err := engineModule.get()
	if err != nil {
		panic(err)
	}
	defer in.put()
	c := &cli{main: in, stdout: stdout, stderr: stderr, started: time.Now()}
	return c.run(args)
}

// step runs a step on this goroutine's instance; the engine failing (a core bug) ends the run (runCLIWith recovers).
func (c *cli) step(step string, name, match, ignore string, args []byte) cliResult {
	r, err := cliStep(c.main, step, []byte(name), []byte(match), []byte(ignore), args)
	if err != nil {
		panic(err)
	}
	return r
}

func (c *cli) write(r cliResult) {
	if c.progress && (len(r.err) > 0 || len(r.out) > 0 && c.tty) {
		c.stderr.Write(c.step("progress", "", "", "", nil).err) // the progress line drawn, if any, goes first
	}
	c.stderr.Write(r.err)
	if _, err := c.stdout.Write(r.out); errors.Is(err, syscall.EPIPE) {
		os.Exit(0) // the reader left (| head): stop quietly, as the Node CLI does
	}
}

func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// chunk runs whole lines on this goroutine's instance, why's state carried from chunk to chunk.
func (c *cli) chunk(file string, first int, b []byte) cliResult {
	r := c.step("chunk", file, string(c.state), strconv.Itoa(first), b)
	c.state, c.stop = r.state, r.code == 1 // why found the call itself
	return r
}

func (c *cli) run(args []string) int {
	// argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL.
	for _, a := range args {
		size := "-"
		if fi, err := os.Stat(a); err == nil {
			size = strconv.FormatInt(fi.Size(), 10)
		}
		c.argv = append(append(append(c.argv, size+":"...), a...), 0)
	}
	// What the core needs to know of this host for the plan: goroutines share the compiled module ("thread").
	c.facts = fmt.Appendf(nil, "cores=%d\x00worker=thread\x00", runtime.NumCPU())
	if m := os.Getenv("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES"); m != "" {
		c.facts = fmt.Appendf(c.facts, "min-bytes=%s\x00", m)
	}
	if os.Getenv("OVERTURN_FINGERPRINT_JOBS_DEAL") == "1" {
		c.facts = append(c.facts, "deal=1\x00"...)
	}
	planned := c.step("plan", string(c.argv), cliProg, abi.PACKAGE_VERSION, c.facts)
	if planned.code >= 0 {
		c.write(planned)
		return int(planned.code)
	}
	var plan [][2]string
	policy := map[string]int{}
	for _, r := range strings.Split(strings.TrimSuffix(string(planned.state), "\x00"), "\x00") {
		k, v, _ := strings.Cut(r, "=")
		plan = append(plan, [2]string{k, v})
		policy[k], _ = strconv.Atoi(v)
	}
	c.progress, c.tty = terminal(c.stderr), terminal(c.stdout)
	defer func() {
		if c.progress {
			c.stderr.Write(c.step("progress", "", "", "", nil).err)
		}
	}()
	var pool *jobs
	lines, chunks := 0, 0
	for _, rec := range plan {
		step, file := rec[0], rec[1]
		if c.stop {
			break
		}
		switch step {
		case "tools", "target":
			// Read whole and handed over, or the error's name; the core answers (a usage error, why's call).
			var b []byte
			err := wholeLines(file, policy["chunk"], func(chunk []byte) bool { b = append(b, chunk...); return false })
			r := c.step(step, file, "", errName(err), b)
			if step == "tools" && r.code < 0 {
				c.tools = b
				continue
			}
			if c.write(r); step == "tools" || r.code != 0 {
				return int(r.code)
			}
			c.state = r.state
			continue
		case "shared":
			if pool == nil {
				pool = c.newJobs(policy)
			}
		case "load", "here":
		default:
			continue
		}
		total := int64(0)
		if fi, err := os.Stat(file); c.progress && file != "-" && err == nil {
			total = fi.Size()
		}
		first, read := 1, 0
		err := wholeLines(file, policy["chunk"], func(b []byte) bool {
			read += len(b)
			chunks++
			var n int
			if step == "shared" {
				n = pool.push(file, first, b)
			} else {
				if pool != nil {
					pool.drain() // answered as its lines arrive, after what came before
				}
				r := cliResult{}
				if step == "load" {
					r = c.step("load", file, "", strconv.Itoa(first), b)
				} else {
					r = c.chunk(file, first, b)
				}
				c.write(r)
				n = r.lines
			}
			first += n
			lines += n
			if c.progress {
				ms := time.Since(c.started).Milliseconds()
				c.stderr.Write(c.step("progress", file, "", fmt.Sprintf("%d %d %d %d", read, total, lines, ms), nil).err)
			}
			return c.stop
		})
		if err != nil {
			if pool != nil {
				pool.drain()
			}
			c.write(c.step("unreadable", file, "", errName(err), nil))
		}
	}
	var counts []byte
	if pool != nil {
		counts = pool.finish()
	}
	end := c.step("finish", "", string(c.state), "", counts)
	c.write(end)
	if t := os.Getenv("OVERTURN_FINGERPRINT_JOBS_TRACE"); t != "" {
		tr := []int{chunks}
		if pool != nil {
			tr = pool.trace()
		}
		b, _ := json.Marshal(map[string]any{"workers": len(tr) - 1, "chunks": tr})
		os.WriteFile(t, append(b, '\n'), 0o644)
	}
	return int(end.code)
}

// errName: a read error's POSIX name (ENOENT), which the core words; "" when read, "-" when it has none.
func errName(err error) string {
	var errno syscall.Errno
	switch {
	case err == nil:
		return ""
	case errors.Is(err, fs.ErrNotExist):
		return "ENOENT"
	case errors.Is(err, fs.ErrPermission):
		return "EACCES"
	case errors.As(err, &errno):
		if name, ok := errnoNames[errno]; ok {
			return name
		}
	}
	return "-"
}

// The POSIX names of the read errors the core words (cli/errno.ts); the system's numbers differ.
var errnoNames = map[syscall.Errno]string{syscall.EISDIR: "EISDIR", syscall.ENOTDIR: "ENOTDIR", syscall.ELOOP: "ELOOP",
	syscall.ENAMETOOLONG: "ENAMETOOLONG", syscall.EMFILE: "EMFILE", syscall.ENFILE: "ENFILE", syscall.EIO: "EIO",
	syscall.ENXIO: "ENXIO", syscall.ENOMEM: "ENOMEM", syscall.EPERM: "EPERM"}

// wholeLines calls f with the file's bytes in chunks of whole lines of about
// size bytes (the last may lack its "\n"), until f says stop; the error is a read's.
func wholeLines(file string, size int, f func([]byte) bool) error {
	r := io.Reader(os.Stdin)
	if file != "-" {
		fh, err := os.Open(file)
		if err != nil {
			return err
		}
		defer fh.Close()
		r = fh
	}
	var carry []byte
	buf := make([]byte, size)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			data := append(carry, buf[:n]...)
			cut := bytes.LastIndexByte(data, '\n') + 1
			carry = append([]byte(nil), data[cut:]...)
			if cut > 0 && f(data[:cut]) {
				return nil
			}
		}
		if err == io.EOF {
			break
		} else if err != nil {
			return err
		}
	}
	if len(carry) > 0 {
		f(carry)
	}
	return nil
}
