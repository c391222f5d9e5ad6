package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// The CLI is the host of the core's CLI driver (assembly/cli/drive.ts): the
// core plans the run, splits and reads the lines, deals them to the jobs,
// formats every byte printed and says the exit status; it drives this loop
// one action at a time (abi.CLI_*) and this file does each and reports back:
// argv and the sizes at its paths, file and stdin reads, stdout/stderr, the
// terminal, a closed pipe, and the worker goroutines (each with its own
// engine instance). The Node and Python CLIs run the same loop.

const cliProg = "overturn-fingerprint"

// One step's answer; a worker sends the same (data: its number or the task's, state: the answer; fail: it failed).
type cliResult struct {
	out, err, state, data []byte
	lines, op, arg        int
	code                  int32
	fail                  error
}

// cliStep runs one step of the engine (assembly/cli/steps.ts lists the steps and their parts); the
// engine failing (a core bug, out of memory) ends the run (runCLIWith recovers).
func cliStep(in *instance, step string, name, match, ignore, args []byte) cliResult {
	r, err := in.do(context.Background(), abi.F_CLI, [][]byte{[]byte(step), name, match, ignore}, textArg{b: args}, nil)
	if err != nil {
		panic(err)
	}
	w, t := r.words, r.text
	o, e, s := w[0], w[0]+w[1], w[0]+w[1]+w[2]
	return cliResult{out: t[:o], err: t[o:e], state: t[e:s], data: t[s : s+w[6]], lines: int(w[3]), code: int32(w[4]),
		op: int(w[5]), arg: int(w[7])}
}

// RunCLI runs overturn-fingerprint with args (without the program name) and
// returns its exit status: the same bytes, stderr and status as the Node CLI.
func RunCLI(args []string) int {
	signal.Ignore(syscall.SIGPIPE) // a closed stdout is an EPIPE error (write), not a kill
	return runCLIWith(args, os.Stdout, os.Stderr)
}

func runCLIWith(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case error:
			fmt.Fprintf(stderr, "%s: %v\n", cliProg, r)
			code = 2
		default:
			panic(r)
		}
	}()
	in, err := engineModule.get()
	if err != nil {
		panic(err)
	}
	defer in.put()
	// argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL.
	var argv []byte
	for _, a := range args {
		size := "-"
		if fi, err := os.Stat(a); err == nil {
			size = strconv.FormatInt(fi.Size(), 10)
		}
		argv = fmt.Appendf(argv, "%s:%s\x00", size, a)
	}
	// What the core needs to know of this host: goroutines share the compiled module ("thread"); the
	// tests' settings (workers whatever the size, chunks dealt in turn), an empty one being none.
	facts := fmt.Appendf(nil, "cores=%d\x00worker=thread\x00min-bytes=%s\x00deal=%s\x00progress=%d\x00tty=%d\x00",
		runtime.NumCPU(), os.Getenv("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES"), os.Getenv("OVERTURN_FINGERPRINT_JOBS_DEAL"),
		terminal(stderr), terminal(stdout))
	write := func(e, o []byte) {
		stderr.Write(e)
		if _, err := stdout.Write(o); errors.Is(err, syscall.EPIPE) {
			os.Exit(0) // the reader left (| head): stop quietly, as the Node CLI does
		}
	}
	started, inbox := time.Now(), make(chan cliResult, 1024)
	var queues []chan cliResult // a worker's tasks: the CLI_SEND actions (task arg, payload data)
	kept := map[int][2][]byte{}
	var buf []byte
	var f *os.File // the file being read, open from its first read to its end or an error (or to the GC's close)
	defer func() {
		for _, q := range queues {
			close(q)
		}
	}()
	r := cliStep(in, "start", argv, []byte(cliProg), []byte(abi.PACKAGE_VERSION), facts)
	for {
		var aux string
		var got []byte
		if r.op == abi.CLI_HOLD {
			kept[r.lines] = [2][]byte{r.err, r.out}
		} else {
			write(r.err, r.out)
		}
		switch r.op {
		case abi.CLI_EXIT:
			if t := os.Getenv("OVERTURN_FINGERPRINT_JOBS_TRACE"); t != "" && len(r.data) > 0 {
				os.WriteFile(t, r.data, 0o644)
			}
			return int(r.code)
		case abi.CLI_READ:
			var err error
			if f == nil {
				if f = os.Stdin; string(r.data) != "-" {
					f, err = os.Open(string(r.data))
				}
			}
			n := 0
			if buf = slices.Grow(buf[:0], r.arg)[:r.arg]; err == nil {
				n, err = f.Read(buf)
			}
			if got, aux = buf[:n], errName(err); aux != "" {
				if f != os.Stdin {
					f.Close() // nil after a failed open: nothing to close
				}
				f = nil
			}
		case abi.CLI_READ_ALL:
			var err error
			if string(r.data) == "-" {
				got, err = io.ReadAll(os.Stdin)
			} else {
				got, err = os.ReadFile(string(r.data))
			}
			aux = errName(err)
		case abi.CLI_SPAWN:
			for k := range r.lines {
				queues = append(queues, make(chan cliResult, 1024))
				go cliWorker(k, argv, r.data, queues[k], inbox)
			}
		case abi.CLI_SEND:
			queues[r.lines] <- r
		case abi.CLI_POLL, abi.CLI_WAIT:
			var m cliResult
			if r.op == abi.CLI_WAIT || len(inbox) > 0 { // a poll takes only what came (this loop alone receives)
				m = <-inbox
			}
			if m.fail != nil {
				panic(m.fail)
			}
			if aux, got = string(m.data), m.state; len(got) > 0 {
				j, _ := strconv.Atoi(aux)
				kept[j] = [2][]byte{m.err, m.out}
			}
		case abi.CLI_WRITE:
			write(kept[r.lines][0], kept[r.lines][1])
			delete(kept, r.lines)
		}
		r = cliStep(in, "next", strconv.AppendInt(nil, time.Since(started).Milliseconds(), 10), []byte(aux), r.state, got)
	}
}

// cliWorker: a worker goroutine with its own engine instance and the run's options; tasks in, answers out.
func cliWorker(k int, argv, tools []byte, tasks chan cliResult, inbox chan<- cliResult) {
	defer func() {
		if r := recover(); r != nil {
			inbox <- cliResult{fail: fmt.Errorf("%v", r)}
		}
	}()
	in, err := engineModule.get()
	if err != nil {
		panic(err)
	}
	defer in.put()
	cliStep(in, "worker", argv, nil, nil, tools)
	inbox <- cliResult{data: strconv.AppendInt(nil, int64(k), 10)}
	for t := range tasks {
		r := cliStep(in, "job", nil, nil, nil, t.data)
		r.data = strconv.AppendInt(nil, int64(t.arg), 10)
		inbox <- r
	}
}

// terminal: 1 when w is a terminal (a nil *os.File answers ErrInvalid), else 0.
func terminal(w io.Writer) int {
	f, _ := w.(*os.File)
	if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		return 1
	}
	return 0
}

// errName: a read error as the core words it (cli/errno.ts): "" none, "EOF" the end, else the system's
// text for it ("no such file or directory": a syscall.Errno has no POSIX name).
func errName(err error) string {
	var errno syscall.Errno
	switch {
	case err == nil:
		return ""
	case err == io.EOF:
		return "EOF"
	case errors.As(err, &errno):
		return errno.Error()
	}
	return "-"
}
