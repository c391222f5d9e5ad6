package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"bytes"
	"context"
	"io"
	"sync"
)

// Recording is a recorded run (JSON Lines, one call or message per line)
// indexed by the core (assembly/ops/replay.ts) in an engine instance of its
// own; Answer replays a live call against it. Safe for concurrent use.
type Recording struct {
	mu           sync.Mutex
	in           *instance
	BadLines     []BadLine // lines that are not calls, with why
	lines, calls int
}

// LoadRecording reads a recording from r, LOAD_CHUNK_BYTES at a time (the
// core keeps a line a chunk cuts until a chunk ends it); opts.Tools declares
// selections by tool name.
func LoadRecording(ctx context.Context, r io.Reader, opts *CallOptions) (*Recording, error) {
	in, err := engineModule.get()
	if err != nil {
		return nil, err
	}
	rec := &Recording{in: in}
	tools, err := toolsText(opts)
	if err == nil && tools != nil {
		_, err = rec.op(ctx, abi.R_TOOLS, 0, textArg{b: tools})
	}
	buf := make([]byte, abi.LOAD_CHUNK_BYTES)
	for last := false; err == nil && !last; {
		n, rerr := io.ReadFull(r, buf)
		if last = rerr == io.EOF || rerr == io.ErrUnexpectedEOF; rerr != nil && !last {
			err = rerr
		} else if err = ctx.Err(); err == nil { // cancelled between chunks
			err = rec.load(ctx, buf[:n], last)
		}
	}
	if err != nil {
		rec.Close()
		return nil, err
	}
	return rec, nil
}

func (rec *Recording) load(ctx context.Context, data []byte, last bool) error {
	out, err := rec.op(ctx, abi.R_LOAD, map[bool]uint32{true: abi.LOAD_LAST}[last], textArg{b: data})
	var r loadReport
	if err == nil {
		err = decode(out, &r)
	}
	rec.lines, rec.calls = r.Lines, r.Calls
	for _, b := range r.Bad {
		e := coreError(&result{status: int32(b.Status), offset: int32(b.Offset), text: []byte(b.Detail)})
		rec.BadLines = append(rec.BadLines, BadLine{Line: b.Line, Err: e})
	}
	return err
}

// op runs one replay operation on the recording's instance (its index lives there).
func (rec *Recording) op(ctx context.Context, op, arg uint32, args any) ([]byte, error) {
	if rec.in == nil {
		return nil, newError("invalid-argument", "the recording is closed", "")
	}
	// op, argument, no line held, and the line's text alone (no items): Go hands back the text.
	r, err := rec.in.do(ctx, abi.F_REPLAY, [][]byte{words(op, arg, 0, abi.U_NONE)}, args, nil)
	if trapped, err := rec.in.trapped(err); trapped {
		rec.in = nil
		return nil, err
	} else if err != nil {
		return nil, err
	}
	return r.text, nil
}

// Lines is the number of lines read; Len the number of recorded calls.
func (rec *Recording) Lines() int { return rec.lines }
func (rec *Recording) Len() int   { return rec.calls }

// Answer replays call number index of a live call or message (JSON text or a Go value).
func (rec *Recording) Answer(call any, index int) (*ReplayAnswer, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out, err := rec.op(context.Background(), abi.R_ANSWER, uint32(index), callArg(call))
	if err != nil {
		return nil, err
	}
	record, text, _ := bytes.Cut(out, []byte{'\n'})
	a := &ReplayAnswer{}
	if err := decode(record, a); err != nil {
		return nil, err
	}
	if a.Hit {
		a.Text = string(text)
	} else if a.Nearest != nil {
		a.Nearest.Text = string(text)
	}
	return a, nil
}

// Unused lists the recorded calls no Answer took, in recording order.
func (rec *Recording) Unused() ([]UnusedCall, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out, err := rec.op(context.Background(), abi.R_UNUSED, 0, textArg{})
	if err != nil {
		return nil, err
	}
	var list []UnusedCall
	if err := decode(bytes.TrimSuffix(out, []byte{'\n'}), &list); err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].Text == "" && i > 0 { // the same line as the call before it
			list[i].Text = list[i-1].Text
		}
	}
	return list, nil
}

// Close releases the recording's instance.
func (rec *Recording) Close() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.in != nil {
		rec.in.mod.Close(context.Background())
		rec.in = nil
	}
}
