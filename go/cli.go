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

// The CLI is a thin shell over the core's CLI engine (assembly/cli/run.ts):
// the core reads the arguments, splits and reads the lines, fingerprints
// and formats every byte printed and returns the exit status; this file
// moves bytes (argv, files and stdin in 1 MiB chunks of whole lines,
// stdout/stderr, TTY progress) and runs --jobs N as goroutines, each with an
// engine instance of its own, output in input order.

const (
	cliProg  = "overturn-fingerprint"
	cliChunk = 1 << 20
)

type cliResult struct {
	out, err, state []byte
	lines           int
	code            int32
}

// cliStep runs one step of the engine (assembly/cli/out.ts lists the steps and their parts).
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
	main     *instance
	stdout   io.Writer
	stderr   io.Writer
	progress *progress
	argv     []byte
	facts    []byte
	tools    []byte
}

// RunCLI runs overturn-fingerprint with args (without the program name) and
// returns its exit status: the same bytes, stderr and status as the Node CLI.
func RunCLI(args []string) int {
	signal.Ignore(syscall.SIGPIPE) // a closed stdout is an EPIPE error (write), not a kill
	return runCLIWith(args, os.Stdout, os.Stderr)
}

func runCLIWith(args []string, stdout, stderr io.Writer) (code int) {
	c := &cli{stdout: stdout, stderr: stderr}
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
	return c.run(args)
}

func (c *cli) write(r cliResult) {
	if len(r.err) > 0 {
		c.progress.clear()
		c.stderr.Write(r.err)
	}
	if len(r.out) > 0 {
		if _, err := c.stdout.Write(r.out); errors.Is(err, syscall.EPIPE) {
			os.Exit(0) // the reader left (| head): stop quietly, as the Node CLI does
		}
	}
}

// step runs a step on this goroutine's instance; the engine failing (a core bug) ends the run (runCLIWith recovers).
func (c *cli) step(step string, name, match, ignore string, args []byte) cliResult {
	r, err := cliStep(c.main, step, []byte(name), []byte(match), []byte(ignore), args)
	if err != nil {
		panic(err)
	}
	return r
}

func (c *cli) run(args []string) int {
	in, err := engineModule.get()
	if err != nil {
		panic(err)
	}
	defer in.put()
	c.main = in
	// argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL.
	for _, a := range args {
		size := "-"
		if fi, err := os.Stat(a); err == nil {
			size = strconv.FormatInt(fi.Size(), 10)
		}
		c.argv = append(append(append(append(c.argv, size...), ':'), a...), 0)
	}
	// The host's facts for the core's plan (assembly/cli/plan.ts): goroutines share the compiled module.
	facts := fmt.Sprintf("cores=%d\x00worker=thread\x00", runtime.NumCPU())
	if s := os.Getenv("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES"); s != "" {
		facts += "min-bytes=" + s + "\x00"
	}
	c.facts = []byte(facts)
	planned := c.step("plan", string(c.argv), cliProg, abi.PACKAGE_VERSION, c.facts)
	if planned.code >= 0 {
		c.write(planned)
		return int(planned.code)
	}
	// The plan's records, key=value in order: the policy, then each input with its step.
	records := strings.Split(string(planned.state), "\x00")
	records = records[:len(records)-1]
	workers, chunkSize := 0, cliChunk
	for _, r := range records {
		k, v, _ := strings.Cut(r, "=")
		if n, err := strconv.Atoi(v); err == nil && k == "workers" {
			workers = n
		} else if err == nil && k == "chunk" {
			chunkSize = n
		}
	}
	_ = chunkSize // reads stay at cliChunk, the plan's size today
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		c.progress = &progress{start: time.Now(), w: os.Stderr}
	}
	defer c.progress.clear()
	var state []byte
	var pool *jobs_
	var lines, read int
	chunks, done := 0, false
	for _, rec := range records {
		step, file, _ := strings.Cut(rec, "=")
		if done {
			break
		}
		switch step {
		case "tools", "target":
			// Read whole and handed over, or the error's name; the core answers (a usage error, why's call).
			b, err := readAll(file)
			t := c.step(step, file, "", errName(err), b)
			if step == "tools" {
				if t.code >= 0 {
					c.write(t)
					return int(t.code)
				}
				c.tools = b
				continue
			}
			c.write(t)
			if t.code != 0 {
				return int(t.code)
			}
			state = t.state
			continue
		case "load":
			first := 1
			c.unreadable(file, wholeLines(file, func(chunk []byte) bool {
				r := c.step("load", file, "", strconv.Itoa(first), chunk)
				c.write(r)
				first += r.lines
				return false
			}))
			continue
		case "here", "shared":
		default:
			continue
		}
		if step == "shared" && pool == nil && workers > 0 {
			pool = c.newJobs(workers)
		}
		if c.progress != nil {
			c.progress.label, c.progress.total = file, 0
			if fi, err := os.Stat(file); file != "-" && err == nil {
				c.progress.total = fi.Size()
			}
		}
		first := 1
		err := wholeLines(file, func(chunk []byte) bool {
			read += len(chunk)
			chunks++
			var n int
			if pool != nil && step == "shared" {
				n = pool.push(file, first, chunk, &state)
			} else {
				if pool != nil {
					pool.drain() // answered as its lines arrive, after what came before
				}
				r := c.step("chunk", file, string(state), strconv.Itoa(first), chunk)
				state = r.state
				c.write(r)
				n, done = r.lines, r.code == 1 // why found the call itself
			}
			first += n
			lines += n
			c.progress.update(read, lines)
			return done
		})
		if pool != nil {
			pool.drain()
		}
		c.unreadable(file, err)
	}
	var counts []byte
	if pool != nil {
		counts = pool.counts()
	}
	end := c.step("finish", "", string(state), "", counts)
	c.write(end)
	if t := os.Getenv("OVERTURN_FINGERPRINT_JOBS_TRACE"); t != "" {
		tr := map[string]any{"workers": 0, "chunks": []int{chunks}}
		if pool != nil {
			tr = pool.trace()
		}
		b, _ := json.Marshal(tr)
		os.WriteFile(t, append(b, '\n'), 0o644)
	}
	return int(end.code)
}

// unreadable reports a file that could not be read (err from wholeLines).
func (c *cli) unreadable(file string, err error) {
	if err != nil {
		c.write(c.step("unreadable", file, "", errName(err), nil))
	}
}

// errName: a read error's errno name for the core to word (assembly/cli/errno.ts); "" when read, "-" when it has none.
func errName(err error) string {
	var errno syscall.Errno
	switch {
	case err == nil:
		return ""
	case errors.Is(err, fs.ErrNotExist):
		return "ENOENT"
	case errors.Is(err, syscall.EISDIR):
		return "EISDIR"
	case errors.Is(err, syscall.EPERM):
		return "EPERM"
	case errors.Is(err, fs.ErrPermission):
		return "EACCES"
	case errors.As(err, &errno) && errno == syscall.ENOTDIR:
		return "ENOTDIR"
	}
	return "-"
}

// wholeLines calls f with the file's bytes in chunks of whole lines (the
// last may lack its "\n"), until f says stop; the error is a read's.
func wholeLines(file string, f func([]byte) bool) error {
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
	buf := make([]byte, cliChunk)
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
		}
		if err != nil {
			return err
		}
	}
	if len(carry) > 0 {
		f(carry)
	}
	return nil
}

func readAll(file string) ([]byte, error) {
	var out []byte
	err := wholeLines(file, func(b []byte) bool {
		out = append(out, b...)
		return false
	})
	return out, err
}

// progress: "label: N lines, X MB of Y MB (P%)" on stderr, only on a terminal and after the first second.
type progress struct {
	start, last time.Time
	shown       bool
	label       string
	total       int64
	w           io.Writer
}

func (p *progress) update(read, lines int) {
	if p == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 250*time.Millisecond {
		return
	}
	p.last = now
	mb := func(n int64) string { return strconv.FormatFloat(float64(n)/1048576, 'f', 1, 64) }
	of := " MB"
	if p.total > 0 {
		of = fmt.Sprintf(" of %s MB (%d%%)", mb(p.total), 100*int64(read)/p.total)
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s: %s lines, %s%s", p.label, grouped(lines), mb(int64(read)), of)
	p.shown = true
}

func (p *progress) clear() {
	if p != nil && p.shown {
		io.WriteString(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func grouped(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
