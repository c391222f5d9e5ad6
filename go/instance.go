package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"context"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The core, compiled from assembly/ by scripts/build-wasm.mjs; go/wasm holds
// copies of build/*.wasm (wasm_test.go checks they are the same bytes).
//
//go:embed wasm/*.wasm
var wasmFiles embed.FS

// A module of the core: compiled once on first use, then a pool of
// instances (wasm instances are single-threaded; each goroutine borrows one).
type module struct {
	compiled func() (wazero.CompiledModule, error)
	mu       sync.Mutex
	idle     []*instance
}

func newModule(file string) *module {
	return &module{compiled: sync.OnceValues(func() (wazero.CompiledModule, error) {
		b, _ := wasmFiles.ReadFile("wasm/" + file)
		return wasmRuntime().CompileModule(context.Background(), b)
	})}
}

var (
	// No WithCloseOnContextDone: its checks made every call ~3.5x slower (measured); long work checks ctx between chunks.
	wasmRuntime              = sync.OnceValue(func() wazero.Runtime { return wazero.NewRuntime(context.Background()) })
	fastModule, engineModule = newModule("fingerprint.wasm"), newModule("engine.wasm")
)

// Idle instances kept per module; more are closed when returned.
const maxIdle = 16

// One wasm instance and what it was last told.
type instance struct {
	m                           *module
	mod                         api.Module
	mem                         api.Memory
	run, reserve, limits, batch api.Function
	stack                       []uint64
	inPtr, inCap, resPtr        uint32
	told                        [6]uint32
	toldOK                      bool
	bytes                       uint32 // the byte limit in force, as the core answered
	buf                         []byte // the request being built (header, parts, value stream)
}

func (m *module) get() (*instance, error) {
	m.mu.Lock()
	if n := len(m.idle); n > 0 {
		in := m.idle[n-1]
		m.idle = m.idle[:n-1]
		m.mu.Unlock()
		return in, nil
	}
	m.mu.Unlock()
	compiled, err := m.compiled()
	if err != nil {
		return nil, internalError(err)
	}
	ctx := context.Background()
	mod, err := wasmRuntime().InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		return nil, internalError(err)
	}
	in := &instance{m: m, mod: mod, mem: mod.Memory(), run: mod.ExportedFunction("run"),
		reserve: mod.ExportedFunction("reserve"), limits: mod.ExportedFunction("limits"),
		batch: mod.ExportedFunction("runBatch"), stack: make([]uint64, 6)}
	// The module must speak the ABI these constants were generated from.
	ver, err1 := mod.ExportedFunction("version").Call(ctx)
	id, err2 := mod.ExportedFunction("abiId").Call(ctx)
	res, err3 := mod.ExportedFunction("result").Call(ctx)
	if err := errors.Join(err1, err2, err3); err != nil || ver[0] != abi.FINGERPRINT_VERSION || uint32(id[0]) != abi.ABI_ID {
		mod.Close(ctx)
		return nil, newError("invalid-argument", fmt.Sprintf(
			"wasm module does not speak ABI %x version %d (rebuild)", abi.ABI_ID, abi.FINGERPRINT_VERSION), "")
	}
	in.resPtr = uint32(res[0])
	if err := in.room(context.Background(), abi.INPUT_RESERVE_BYTES); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

// put returns an instance to the pool, or closes it when its memory grew
// past the retained size (wasm memory cannot shrink) or the pool is full.
func (in *instance) put() {
	m := in.m
	m.mu.Lock()
	if in.mem.Size() <= uint32(retainBytes.Load()) && len(m.idle) < maxIdle {
		if cap(in.buf) > abi.INPUT_RESERVE_BYTES<<4 {
			in.buf = nil // a large request's buffer is not kept either
		}
		m.idle = append(m.idle, in)
		m.mu.Unlock()
		return
	}
	m.mu.Unlock()
	in.mod.Close(context.Background())
}

// with runs f on a pooled instance; an instance whose call failed in the
// wasm (a trap, a cancelled context) is closed, never reused (D19).
func (m *module) with(f func(in *instance) error) error {
	in, err := m.get()
	if err != nil {
		return err
	}
	trapped, err := in.trapped(f(in))
	if !trapped {
		in.put()
	}
	return err
}

// trapped closes in when err is a failure in its wasm (a trap, a cancelled
// context: never reused, D19) and gives the error to return.
func (in *instance) trapped(err error) (bool, error) {
	var trap *trapError
	if !errors.As(err, &trap) {
		return false, err
	}
	in.mod.Close(context.Background())
	if trap.ctx != nil {
		return true, trap.ctx
	}
	return true, internalError(trap.err)
}

type trapError struct{ err, ctx error }

func (t *trapError) Error() string { return t.err.Error() }

func internalError(err error) error {
	return newError("internal-error", "the fingerprint core failed: "+err.Error(), "")
}

func (in *instance) call(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	copy(in.stack, args)
	if err := f.CallWithStack(ctx, in.stack); err != nil {
		return 0, &trapError{err: err, ctx: ctx.Err()}
	}
	return in.stack[0], nil
}

// room makes the input region hold n bytes.
func (in *instance) room(ctx context.Context, n uint32) error {
	if n <= in.inCap && in.inPtr != 0 {
		return nil
	}
	p, err := in.call(ctx, in.reserve, uint64(n))
	if err != nil {
		return err
	}
	if p == 0 {
		return word(abi.W_NO_ROOM, "", strconv.FormatUint(uint64(n), 10))
	}
	in.inPtr, in.inCap = uint32(p), n
	return nil
}

// Limits as the core takes them: u32 each, noLimit for none.
const noLimit = 0xFFFFFFFF

var none = [3]uint32{noLimit, noLimit, noLimit}

var (
	configured  atomic.Pointer[[3]uint32]
	retainBytes atomic.Int64
)

func init() {
	configured.Store(&none)
	retainBytes.Store(abi.RETAIN_BYTES)
}

// tell gives the instance the configured limits and the call's own (only
// when they differ from what it was last told); the core decides and words
// every limit.
func (in *instance) tell(ctx context.Context, own *Limits) error {
	c := configured.Load()
	o, err := own.over(none)
	if err != nil {
		return err
	}
	t := [6]uint32{c[0], c[1], c[2], o[0], o[1], o[2]}
	if in.toldOK && t == in.told {
		return nil
	}
	b, err := in.call(ctx, in.limits, uint64(t[0]), uint64(t[1]), uint64(t[2]), uint64(t[3]), uint64(t[4]), uint64(t[5]))
	if err != nil {
		return err
	}
	in.told, in.toldOK, in.bytes = t, true, uint32(b)
	return nil
}

// do runs one request: the header, the parts, then args as JSON text
// (textArg) or as a Go value's stream, and reads the result block (a failed
// status is the core's FingerprintError). Past the byte limit only limit + 1
// bytes go in, which the core refuses by their length (its one message).
// A limits request (F_LIMITS) is not under the limits it sets.
func (in *instance) do(ctx context.Context, flags uint32, parts [][]byte, args any, own *Limits) (*result, error) {
	if err := in.tell(ctx, own); err != nil {
		return nil, err
	}
	in.buf = append(in.buf[:0], make([]byte, abi.HEADER_BYTES)...)
	for i, p := range parts {
		binary.LittleEndian.PutUint32(in.buf[4+4*i:], uint32(len(p)))
		in.buf = append(in.buf, p...)
	}
	start := len(in.buf)
	limit := 1 << 40 // none; a recording's chunks and the CLI's are many inputs, each under the limit
	if in.bytes != noLimit && flags&(abi.F_REPLAY|abi.F_CLI|abi.F_LIMITS) == 0 {
		limit = int(in.bytes)
	}
	if t, ok := args.(textArg); ok {
		if t.str {
			flags |= abi.F_STRING_INPUT
		}
		in.buf = append(in.buf, t.b[:min(len(t.b), limit+1)]...)
	} else {
		buf, whole, err := writeValue(in.buf, args, limit)
		if in.buf = buf; err != nil {
			return nil, err
		}
		if !whole {
			in.buf = in.buf[:start+limit+1]
		}
		flags |= abi.F_VALUES
	}
	binary.LittleEndian.PutUint32(in.buf[0:], flags)
	binary.LittleEndian.PutUint32(in.buf[20:], uint32(len(in.buf)-start))
	if err := in.room(ctx, uint32(len(in.buf))); err != nil {
		return nil, err
	}
	if !in.mem.Write(in.inPtr, in.buf) {
		return nil, &trapError{err: errors.New("input region outside memory")}
	}
	st, err := in.call(ctx, in.run, uint64(len(in.buf)))
	if err != nil {
		return nil, err
	}
	r := in.readResult()
	if int32(st) != 0 {
		return r, coreError(r)
	}
	return r, nil
}

// result is the core's answer to one request.
type result struct {
	status, offset int32
	text           []byte // a copy
	digest         string
	words          [8]uint32 // RESULT_CLI_* (the CLI engine's answer)
}

func (in *instance) readResult() *result {
	b, _ := in.mem.Read(in.resPtr, abi.RESULT_BYTES)
	w := func(o int) uint32 { return binary.LittleEndian.Uint32(b[o:]) }
	r := &result{status: int32(w(abi.RESULT_STATUS)), offset: int32(w(abi.RESULT_OFFSET))}
	if t, ok := in.mem.Read(w(abi.RESULT_TEXT_PTR), w(abi.RESULT_TEXT_LEN)); ok {
		r.text = append([]byte(nil), t...)
	}
	r.digest = string(b[abi.RESULT_DIGEST : abi.RESULT_DIGEST+64])
	for i := range r.words {
		r.words[i] = w(abi.RESULT_CLI_OUT + 4*i)
	}
	return r
}
