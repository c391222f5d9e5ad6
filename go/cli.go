package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
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

type cliResult struct {
	out, err, state, data []byte
	lines, op, arg        int
	code                  int32
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

// A worker's message: its number once started, or a task's number, answer and output.
type cliMsg struct {
	aux              string
	answer, err, out []byte
	fail             error
}

type cliTask struct {
	j     int
	data  []byte
	claim atomic.Int32 // 1: its worker runs it, 2: taken back
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
	// argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL.
	var argv []byte
	for _, a := range args {
		size := "-"
		if fi, err := os.Stat(a); err == nil {
			size = strconv.FormatInt(fi.Size(), 10)
		}
		argv = append(append(append(argv, size+":"...), a...), 0)
	}
	// What the core needs to know of this host: goroutines share the compiled module ("thread").
	facts := fmt.Appendf(nil, "cores=%d\x00worker=thread\x00", runtime.NumCPU())
	if m := os.Getenv("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES"); m != "" { // tests: workers whatever the size
		facts = fmt.Appendf(facts, "min-bytes=%s\x00", m)
	}
	for fact, on := range map[string]bool{"deal=1\x00": os.Getenv("OVERTURN_FINGERPRINT_JOBS_DEAL") == "1",
		"progress=1\x00": terminal(stderr), "tty=1\x00": terminal(stdout)} {
		if on {
			facts = append(facts, fact...)
		}
	}
	write := func(e, o []byte) {
		stderr.Write(e)
		if _, err := stdout.Write(o); errors.Is(err, syscall.EPIPE) {
			os.Exit(0) // the reader left (| head): stop quietly, as the Node CLI does
		}
	}
	started, inbox := time.Now(), make(chan cliMsg, 1024)
	var queues []chan *cliTask
	kept, sent := map[int][2][]byte{}, map[int]*cliTask{}
	var buf, block []byte
	var f *os.File
	path := ""
	done := func() {
		if f != nil && f != os.Stdin {
			f.Close()
		}
		f = nil
	}
	defer func() {
		for _, q := range queues {
			close(q)
		}
		done()
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
			// One buffer: the bytes kept of the last read move to its front, the new ones follow.
			buf = slices.Grow(buf[:0], r.lines+r.arg)[:r.lines+r.arg]
			copy(buf, block[len(block)-r.lines:])
			var err error
			if name := string(r.data); f == nil || name != path {
				f, path = os.Stdin, name
				if name != "-" {
					f, err = os.Open(name)
				}
			}
			n := 0
			if err == nil {
				n, err = f.Read(buf[r.lines:])
			}
			block = buf[:r.lines+n]
			if aux = errName(err); n == 0 && aux == "" || aux == "EOF" {
				aux = "EOF"
			}
			if aux != "" {
				done()
			}
			got = block
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
				queues = append(queues, make(chan *cliTask, 1024))
				go cliWorker(k, argv, r.data, queues[k], inbox)
			}
		case abi.CLI_SEND:
			sent[r.arg] = &cliTask{j: r.arg, data: r.data}
			queues[r.lines] <- sent[r.arg]
		case abi.CLI_POLL, abi.CLI_WAIT:
			var m cliMsg
			select {
			case m = <-inbox:
			default: // nothing yet: a wait waits for it, a poll does not
				if r.op == abi.CLI_WAIT {
					m = <-inbox
				}
			}
			if m.fail != nil {
				panic(m.fail)
			}
			if aux, got = m.aux, m.answer; len(got) > 0 {
				j, _ := strconv.Atoi(aux)
				kept[j] = [2][]byte{m.err, m.out}
				delete(sent, j)
			}
		case abi.CLI_WRITE:
			write(kept[r.lines][0], kept[r.lines][1])
			delete(kept, r.lines)
		case abi.CLI_TAKE:
			if t := sent[r.lines]; t != nil && t.claim.CompareAndSwap(0, 2) {
				got = t.data
			}
			delete(sent, r.lines)
		}
		r = cliStep(in, "next", r.state, strconv.AppendInt(nil, time.Since(started).Milliseconds(), 10), []byte(aux), got)
	}
}

// cliWorker: a worker goroutine with its own engine instance and the run's options; tasks in, answers out.
func cliWorker(k int, argv, tools []byte, tasks chan *cliTask, inbox chan<- cliMsg) {
	in, err := engineModule.get()
	if err != nil {
		inbox <- cliMsg{fail: err}
		return
	}
	defer in.put()
	defer func() {
		if r := recover(); r != nil {
			inbox <- cliMsg{fail: fmt.Errorf("%v", r)}
		}
	}()
	cliStep(in, "worker", argv, nil, nil, tools)
	inbox <- cliMsg{aux: strconv.Itoa(k)}
	for t := range tasks {
		if t.claim.CompareAndSwap(0, 1) {
			r := cliStep(in, "job", nil, nil, nil, t.data)
			inbox <- cliMsg{aux: strconv.Itoa(t.j), answer: r.state, err: r.err, out: r.out}
		}
	}
}

func terminal(w io.Writer) bool {
	f, _ := w.(*os.File)
	fi, err := f.Stat() // a nil *os.File answers ErrInvalid
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// errName: a read error's POSIX name (ENOENT), which the core words; "" when read, "-" when it has none.
func errName(err error) string {
	var errno syscall.Errno
	switch {
	case err == nil:
		return ""
	case err == io.EOF:
		return "EOF"
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
