package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"context"
	"io"
	"strconv"
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
	held         RecordedCall // the line the last answer brought (Line 0: none): the core leaves it out of the next
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
		err = rec.op(ctx, abi.R_TOOLS, 0, 0, textArg{b: tools}, &struct{}{})
	}
	buf := make([]byte, abi.LOAD_CHUNK_BYTES)
	for last := false; err == nil && !last; {
		n, rerr := io.ReadFull(r, buf)
		var loaded loadReport
		if last = rerr == io.EOF || rerr == io.ErrUnexpectedEOF; rerr != nil && !last {
			err = rerr
		} else if err = ctx.Err(); err == nil { // cancelled between chunks
			err = rec.op(ctx, abi.R_LOAD, map[bool]uint32{true: abi.LOAD_LAST}[last], 0, textArg{b: buf[:n]}, &loaded)
		}
		rec.lines, rec.calls = loaded.Lines, loaded.Calls
		for _, b := range loaded.Bad {
			e := &result{status: int32(b.Status), offset: int32(b.Offset), text: []byte(b.Detail)}
			rec.BadLines = append(rec.BadLines, BadLine{Line: b.Line, Err: coreError(e)})
		}
	}
	if err != nil {
		rec.Close()
		return nil, err
	}
	return rec, nil
}

// op runs one replay operation on the recording's instance (its index lives
// there; the caller holds rec.mu) and decodes the core's JSON answer into v.
func (rec *Recording) op(ctx context.Context, op, arg, held uint32, args, v any) error {
	if rec.in == nil || rec.in.mod.IsClosed() { // Close, or a failure in its wasm (call closes it, D19)
		return word(abi.W_GO_CLOSED, "")
	}
	// op, argument, held (1: rec.held is the last line the core sent), no items: Go hands back the text.
	r, err := rec.in.do(ctx, abi.RQ_REPLAY, [][]byte{words(op, arg, held, abi.U_NONE)}, args, nil)
	return decode(r, err, v)
}

// Lines is the number of lines read; Len the number of recorded calls.
func (rec *Recording) Lines() int { return rec.lines }
func (rec *Recording) Len() int   { return rec.calls }

// Answer replays call number index of a live call or message (JSON text or a Go value).
// Answers from one line in a row bring its text once (the core leaves out the line held).
func (rec *Recording) Answer(call any, index int) (*ReplayAnswer, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var a struct {
		ReplayAnswer
		RecordedCall // a hit's line, call and text
	}
	held := rec.held
	rec.held = RecordedCall{} // until this answer is read: after any failure the core sends its line again
	if err := rec.op(context.Background(), abi.R_ANSWER, uint32(index), min(uint32(held.Line), 1), callArg(call), &a); err != nil {
		return nil, err
	}
	at := &a.RecordedCall
	if !a.Hit {
		at = a.Nearest
	}
	if at != nil && at.Text == "" && at.Line != held.Line { // left out (a line is never empty), yet not the line held
		return nil, word(abi.W_LINE_MISSING, "", strconv.Itoa(at.Line))
	}
	if rec.held = held; at != nil && at.Text == "" {
		at.Text = held.Text
	} else if at != nil {
		rec.held = *at
	}
	a.ReplayAnswer.Text = a.RecordedCall.Text
	return &a.ReplayAnswer, nil
}

// Unused lists the recorded calls no Answer took, in recording order.
func (rec *Recording) Unused() ([]UnusedCall, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var list []UnusedCall
	if err := rec.op(context.Background(), abi.R_UNUSED, 0, 0, textArg{}, &list); err != nil {
		return nil, err
	}
	for i := 1; i < len(list); i++ {
		if list[i].Text == "" { // the core gives a line's text with its first call: the line of the call before
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
		rec.in.mod.Close(context.Background()) // op refuses a closed instance
	}
}
