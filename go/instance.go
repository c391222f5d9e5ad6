package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The core, compiled from assembly/ by scripts/build-wasm.mjs; go/wasm holds
// copies of build/*.wasm (wasm_test.go checks they are the same bytes).
//
//go:embed wasm/*.wasm
var wasmFiles embed.FS

// A module of the core: compiled once on first use, then a pool of idle
// instances (wasm instances are single-threaded; each goroutine borrows one).
type module struct {
	compiled func() (wazero.CompiledModule, error)
	idle     chan *instance
}

// Idle instances kept per module; more are closed when returned.
const maxIdle = 16

func newModule(file string) *module {
	return &module{idle: make(chan *instance, maxIdle), compiled: sync.OnceValues(func() (wazero.CompiledModule, error) {
		b, _ := wasmFiles.ReadFile("wasm/" + file)
		return wasmRuntime().CompileModule(context.Background(), b)
	})}
}

var (
	// No WithCloseOnContextDone: its checks made every call ~3.5x slower (measured); long work checks ctx between chunks.
	wasmRuntime              = sync.OnceValue(func() wazero.Runtime { return wazero.NewRuntime(context.Background()) })
	fastModule, engineModule = newModule("fingerprint.wasm"), newModule("engine.wasm")
)

// One wasm instance and what it was last told.
type instance struct {
	m                           *module
	mod                         api.Module
	mem                         api.Memory
	run, reserve, limits, batch api.Function
	stack                       []uint64
	inPtr, inCap, resPtr        uint32
	told                        [6]uint32 // the limits it was told (configured, then the call's own)
	bytes                       uint32    // the byte limit in force, as the core answered
	buf                         []byte    // the request being built (header, parts, args)
}

func (m *module) get() (*instance, error) {
	select {
	case in := <-m.idle:
		return in, nil
	default:
	}
	compiled, err := m.compiled()
	ctx, mod := context.Background(), api.Module(nil)
	if err == nil {
		mod, err = wasmRuntime().InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	}
	if err != nil {
		return nil, internalError(err)
	}
	fn := mod.ExportedFunction
	// A new instance has no limits (noLimit each).
	in := &instance{m: m, mod: mod, mem: mod.Memory(), run: fn("run"), reserve: fn("reserve"), limits: fn("limits"),
		batch: fn("runBatch"), stack: make([]uint64, 6), told: [6]uint32{noLimit, noLimit, noLimit, noLimit, noLimit, noLimit},
		bytes: noLimit}
	// The module must speak the ABI these constants were generated from (a trap answers 0: not it).
	ver, _ := in.call(ctx, fn("version"))
	id, _ := in.call(ctx, fn("abiId"))
	res, err := in.call(ctx, fn("result"))
	if err != nil || ver != abi.FINGERPRINT_VERSION || uint32(id) != abi.ABI_ID {
		mod.Close(ctx)
		return nil, &FingerprintError{Code: "invalid-argument", Offset: -1, Index: -1, Message: fmt.Sprintf(
			"wasm module does not speak ABI %x version %d (rebuild)", abi.ABI_ID, abi.FINGERPRINT_VERSION)}
	}
	in.resPtr = uint32(res)
	if err := in.room(ctx, abi.INPUT_RESERVE_BYTES); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

// put returns an instance to the pool, or closes it when its memory grew
// past the retained size (wasm memory cannot shrink) or the pool is full;
// a closed one (its wasm failed, call) stays closed.
func (in *instance) put() {
	if cap(in.buf) > abi.INPUT_RESERVE_BYTES<<4 {
		in.buf = nil // a large request's buffer is not kept either
	}
	if !in.mod.IsClosed() && in.mem.Size() <= uint32(retainBytes.Load()) {
		select {
		case in.m.idle <- in:
			return
		default:
		}
	}
	in.mod.Close(context.Background())
}

// with runs f on a pooled instance (one whose wasm failed is closed: put leaves it).
func (m *module) with(f func(in *instance) error) error {
	in, err := m.get()
	if err != nil {
		return err
	}
	defer in.put()
	return f(in)
}

func internalError(err error) error {
	return &FingerprintError{Code: "internal-error", Message: "the fingerprint core failed: " + err.Error(), Offset: -1, Index: -1}
}

func (in *instance) call(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	copy(in.stack, args)
	if err := f.CallWithStack(ctx, in.stack); err != nil {
		// A failure in its wasm (a trap, a cancelled context): the instance is closed, never reused (D19).
		in.mod.Close(context.Background())
		return 0, cmp.Or(ctx.Err(), internalError(err)) // a cancelled context says so itself
	}
	return in.stack[0], nil
}

// room makes the input region hold n bytes.
func (in *instance) room(ctx context.Context, n uint32) error {
	if n <= in.inCap {
		return nil
	}
	p, err := in.call(ctx, in.reserve, uint64(n))
	if err == nil && p == 0 {
		return word(abi.W_NO_ROOM, "", strconv.FormatUint(uint64(n), 10))
	}
	in.inPtr, in.inCap = uint32(p), n // after a failed call the instance is closed: never read again
	return err
}

// tell gives the instance the configured limits and the call's own (only
// when they differ from what it was last told); the core decides and words
// every limit.
func (in *instance) tell(ctx context.Context, own *Limits) error {
	o, err := own.over(none)
	c := configured.Load()
	if t := [6]uint32{c[0], c[1], c[2], o[0], o[1], o[2]}; err == nil && t != in.told {
		var b uint64
		b, err = in.call(ctx, in.limits, uint64(t[0]), uint64(t[1]), uint64(t[2]), uint64(t[3]), uint64(t[4]), uint64(t[5]))
		in.told, in.bytes = t, uint32(b) // after a failed call the instance is closed: never read again
	}
	return err
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
	start, limit := len(in.buf), -1 // none; a recording's chunks and the CLI's are many inputs, each under the limit
	if in.bytes != noLimit && flags&(abi.F_REPLAY|abi.F_CLI|abi.F_LIMITS) == 0 {
		limit = int(in.bytes)
	}
	buf, err := writeValue(in.buf, args, limit, flags&(abi.F_CALL|abi.F_DIFF|abi.F_REPLAY) != 0)
	if in.buf = buf; err != nil {
		return nil, err
	}
	binary.LittleEndian.PutUint32(in.buf[0:], flags|sentAs(args))
	binary.LittleEndian.PutUint32(in.buf[20:], uint32(len(in.buf)-start))
	if err := in.room(ctx, uint32(len(in.buf))); err != nil {
		return nil, err
	}
	if !in.mem.Write(in.inPtr, in.buf) {
		in.mod.Close(context.Background()) // as a failure in its wasm (call)
		return nil, internalError(errors.New("input region outside memory"))
	}
	if st, err := in.call(ctx, in.run, uint64(len(in.buf))); err != nil {
		return nil, err
	} else if int32(st) != 0 {
		return nil, coreError(in.readResult())
	}
	return in.readResult(), nil
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
	t, _ := in.mem.Read(w(abi.RESULT_TEXT_PTR), w(abi.RESULT_TEXT_LEN))
	r := &result{status: int32(w(abi.RESULT_STATUS)), offset: int32(w(abi.RESULT_OFFSET)), text: bytes.Clone(t),
		digest: string(b[abi.RESULT_DIGEST : abi.RESULT_DIGEST+64])}
	binary.Decode(b[abi.RESULT_CLI_OUT:], binary.LittleEndian, r.words[:]) // a []uint32: no reflection
	return r
}
