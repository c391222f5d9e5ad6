package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"strconv"
	"sync/atomic"
)

// --jobs N, as the plan says (cli/plan.ts): worker goroutines, each with an
// engine instance of its own, planned from the same argv. A chunk goes to a
// started worker holding fewer than "inflight" (with "deal", to job i mod
// N), else this goroutine runs it itself. Results are written in input
// order, at most "queue" per job waiting, so memory stays constant. With
// "takeback", the chunks no worker has started are run here at the end.
type jobs struct {
	c              *cli
	workers        []*worker
	queue          []*job
	inflight, most int
	deal, takeback bool
	dealt, main    int
}

type worker struct {
	reqs chan *job
	held atomic.Int32 // chunks sent, not yet answered
	done int
}

type job struct {
	w     *worker // nil: run here
	file  string
	first int
	bytes []byte
	claim atomic.Int32 // 1: run by its worker, 2: taken back
	res   chan cliResult
}

func (c *cli) newJobs(policy map[string]int) *jobs {
	j := &jobs{c: c, inflight: policy["inflight"], deal: policy["deal"] == 1, takeback: policy["takeback"] == 1}
	j.most = policy["queue"] * (policy["workers"] + 1)
	for range policy["workers"] {
		in, err := engineModule.get()
		if err != nil {
			panic(err)
		}
		w := &worker{reqs: make(chan *job, j.inflight+1)}
		j.workers = append(j.workers, w)
		go func() {
			defer in.put()
			cliStep(in, "plan", c.argv, []byte(cliProg), []byte(abi.PACKAGE_VERSION), c.facts)
			if c.tools != nil {
				cliStep(in, "tools", nil, nil, nil, c.tools)
			}
			for r := range w.reqs {
				if !r.claim.CompareAndSwap(0, 1) { // taken back
					w.held.Add(-1)
					continue
				}
				step, first := "chunk", []byte(strconv.Itoa(r.first))
				if r.first < 0 {
					step, first = "counts", nil
				}
				out, err := cliStep(in, step, []byte(r.file), nil, first, r.bytes)
				if err != nil {
					out = cliResult{err: []byte(err.Error() + "\n"), code: 2}
				}
				w.held.Add(-1) // before the answer: whoever reads it sees the worker free
				r.res <- out
			}
		}()
	}
	return j
}

// free: the worker to send the next chunk to, if any can take it now
// (a goroutine's instance is ready in about a millisecond: no start to wait for).
func (j *jobs) free() (best *worker) {
	if j.deal {
		k := j.dealt%(len(j.workers)+1) - 1
		if j.dealt++; k < 0 {
			return nil
		}
		for best = j.workers[k]; int(best.held.Load()) >= j.inflight; {
			j.writeOldest()
		}
		return best
	}
	for _, w := range j.workers {
		if h := w.held.Load(); int(h) < j.inflight && (best == nil || h < best.held.Load()) {
			best = w
		}
	}
	return best
}

// push runs a chunk here or in a worker, writes what is ready in order, and returns the chunk's line count.
func (j *jobs) push(file string, first int, chunk []byte) int {
	r := &job{file: file, first: first, res: make(chan cliResult, 1)}
	var n int
	if w := j.free(); w != nil {
		n = j.c.step("lines", "", "", "", chunk).lines // counted by the core: the next chunk's first line
		r.w, r.bytes = w, chunk                        // wholeLines never reuses a chunk's bytes
		w.held.Add(1)
		w.done++
		w.reqs <- r
	} else {
		j.main++
		res := j.c.chunk(file, first, chunk)
		n = res.lines
		r.res <- res
	}
	j.queue = append(j.queue, r)
	for len(j.queue) > 0 && (len(j.queue[0].res) > 0 || len(j.queue) >= j.most) {
		j.writeOldest()
	}
	return n
}

func (j *jobs) writeOldest() {
	j.c.write(<-j.queue[0].res)
	j.queue = j.queue[1:]
}

func (j *jobs) drain() {
	for len(j.queue) > 0 {
		j.writeOldest()
	}
}

// finish: takes back the chunks no worker started (the plan's takeback),
// writes every result, then gathers each worker's counts and ends the workers.
func (j *jobs) finish() []byte {
	for _, r := range j.queue {
		if j.takeback && r.w != nil && r.claim.CompareAndSwap(0, 2) {
			j.main++
			r.w.done--
			r.res <- j.c.chunk(r.file, r.first, r.bytes)
		}
	}
	j.drain()
	var counts []byte
	for _, w := range j.workers {
		if w.done > 0 {
			r := &job{first: -1, res: make(chan cliResult, 1)}
			w.held.Add(1)
			w.reqs <- r
			counts = append(counts, (<-r.res).state...)
		}
		close(w.reqs)
	}
	return counts
}

// trace: the chunks each job ran, this goroutine's first (OVERTURN_FINGERPRINT_JOBS_TRACE, tests).
func (j *jobs) trace() []int {
	chunks := []int{j.main}
	for _, w := range j.workers {
		chunks = append(chunks, w.done)
	}
	return chunks
}
