package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"strconv"
)

// --jobs N: this goroutine's engine instance and N−1 worker goroutines, each
// with its own (planned from the same argv and --tools). Chunks are dealt in
// turn (this one, worker 1, worker 2, ...), at most two waiting per worker;
// results are written in input order, at most 4 per job waiting, so memory
// stays constant. Workers keep their own counts, merged by finish.
type jobs_ struct {
	c       *cli
	workers []*worker
	queue   []chan cliResult
	dealt   int
	main    int
}

type worker struct {
	reqs chan job
	done int
}

type job struct {
	file   string
	first  int
	bytes  []byte
	counts bool
	res    chan cliResult
}

func (c *cli) newJobs(n int) *jobs_ {
	j := &jobs_{c: c}
	for i := 0; i < n; i++ {
		in, err := engineModule.get()
		if err != nil {
			panic(err)
		}
		w := &worker{reqs: make(chan job, 2)}
		j.workers = append(j.workers, w)
		go func() {
			defer in.put()
			cliStep(in, "plan", c.argv, []byte(cliProg), []byte(abi.PACKAGE_VERSION), c.facts)
			if c.tools != nil {
				cliStep(in, "tools", nil, nil, nil, c.tools)
			}
			for r := range w.reqs {
				var out cliResult
				var err error
				if r.counts {
					out, err = cliStep(in, "counts", nil, nil, nil, nil)
				} else {
					out, err = cliStep(in, "chunk", []byte(r.file), nil, []byte(strconv.Itoa(r.first)), r.bytes)
				}
				if err != nil {
					out = cliResult{err: []byte(err.Error() + "\n"), code: 2}
				}
				r.res <- out
			}
		}()
	}
	return j
}

// push runs a chunk here or in a worker, writes what is ready in order, and returns the chunk's line count.
func (j *jobs_) push(file string, first int, chunk []byte, state *[]byte) int {
	k := j.dealt % (len(j.workers) + 1)
	if file == "-" {
		k = 0
		j.drain() // standard input is answered as its lines arrive
	} else {
		j.dealt++
	}
	res := make(chan cliResult, 1)
	var n int
	if k == 0 {
		j.main++
		r := j.c.step("chunk", file, string(*state), strconv.Itoa(first), chunk)
		*state, n = r.state, r.lines
		res <- r
	} else {
		n = j.c.step("lines", "", "", "", chunk).lines // counted by the core: the next chunk's first line
		w := j.workers[k-1]
		w.done++
		w.reqs <- job{file: file, first: first, bytes: chunk, res: res}
	}
	j.queue = append(j.queue, res)
	for len(j.queue) > 0 && (len(j.queue[0]) > 0 || len(j.queue) >= 4*(len(j.workers)+1)) {
		j.writeOldest()
	}
	return n
}

func (j *jobs_) writeOldest() {
	j.c.write(<-j.queue[0])
	j.queue = j.queue[1:]
}

func (j *jobs_) drain() {
	for len(j.queue) > 0 {
		j.writeOldest()
	}
}

// counts: the counts of every worker that ran a chunk, for finish; ends the workers.
func (j *jobs_) counts() []byte {
	j.drain()
	var out []byte
	for _, w := range j.workers {
		if w.done > 0 {
			res := make(chan cliResult, 1)
			w.reqs <- job{counts: true, res: res}
			out = append(out, (<-res).state...)
		}
		close(w.reqs)
	}
	return out
}

func (j *jobs_) trace() map[string]any {
	chunks := []int{j.main}
	for _, w := range j.workers {
		chunks = append(chunks, w.done)
	}
	return map[string]any{"workers": len(j.workers), "chunks": chunks}
}
