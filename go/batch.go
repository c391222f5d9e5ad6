package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Batches: many calls, one crossing into the core per chunk of items
// (assembly/ops/batch.ts runBatch), chunk sizes from the ABI. The first bad
// item stops the batch with the core's "item N: ..." error, Index set.

// FingerprintBatchJSON is the fingerprint of each (names[i], argsJSON[i]),
// with shared options (Kind, MatchOn, IgnoreArgs, Limits).
func FingerprintBatchJSON[T Text](ctx context.Context, names []string, argsJSON []T, opts *Options) ([]string, error) {
	if len(names) != len(argsJSON) {
		return nil, word(abi.W_LENGTHS, "", "names", "argsJSON")
	}
	if opts == nil {
		opts = &Options{}
	}
	flags, p, _, err := parts("", opts)
	if err != nil {
		return nil, err
	}
	if len(argsJSON) > 0 && asText(argsJSON[0]).str {
		flags |= abi.F_STRING_INPUT // texts from Go strings: no BOM is skipped (D12)
	}
	items := func(i int) ([2][]byte, error) { return [2][]byte{[]byte(names[i]), []byte(argsJSON[i])}, nil }
	return batch(ctx, fastModule, flags|abi.F_DIGEST|abi.F_RAW_NAMES, [4][]byte{[]byte(cmp.Or(opts.Kind, abi.DEFAULT_KIND)), nil, p[2], p[3]}, len(names), items, opts.Limits)
}

// FingerprintBatch is the fingerprint of each call (as FingerprintCall reads
// it): JSON text (string, []byte) or a Go value, read by the core's call reader.
func FingerprintBatch(ctx context.Context, calls []any, opts *CallOptions) ([]string, error) {
	// Every item as a value stream (text as V_JSON), so one batch holds both.
	w := walker{limit: math.MaxInt}
	items := func(i int) (b [2][]byte, err error) {
		w.buf, w.path = w.buf[:0], w.path[:0]
		if t, ok := callArg(calls[i]).(textArg); ok {
			w.json(t.b)
		} else {
			w.buf, _, err = writeValue(w.buf, calls[i], -1) // a value D20 rejects: the batch stops at it in its turn
		}
		return [2][]byte{nil, w.buf}, err
	}
	return batch(ctx, engineModule, abi.F_CALL|abi.F_DIGEST|abi.F_VALUES, [4][]byte{}, len(calls), items, opts.limits())
}

// batch runs count items in chunks; item(i) gives its name and args bytes,
// shared holds the parts every item shares (kind, -, matchOn, ignoreArgs).
func batch(ctx context.Context, m *module, flags uint32, shared [4][]byte, count int, item func(int) ([2][]byte, error), own *Limits) (out []string, err error) {
	out = make([]string, 0, count)
	err = m.with(func(in *instance) error {
		if err := in.tell(ctx, own); err != nil {
			return err
		}
		for base := 0; base < count; {
			if err := ctx.Err(); err != nil { // cancelled between chunks
				return err
			}
			// One chunk: the descriptor, then each column (offsets, data; shared parts have no offsets), then room for digests.
			buf := make([]byte, 4*abi.BATCH_WORDS)
			at := func() uint32 { return in.inPtr + uint32(len(buf)) }
			desc := func(word int, v uint32) { binary.LittleEndian.PutUint32(buf[4*word:], v) }
			column := func(c int, offs []uint32, data []byte) {
				if offs != nil {
					desc(abi.BATCH_COLUMNS+3*c, at())
					for _, o := range offs {
						buf = binary.LittleEndian.AppendUint32(buf, o)
					}
				}
				desc(abi.BATCH_COLUMNS+3*c+1, at())
				desc(abi.BATCH_COLUMNS+3*c+2, uint32(len(data)))
				buf = append(append(buf, data...), make([]byte, -len(data)&3)...) // the next offsets (or the digests) start on a word
			}
			for c, s := range shared {
				column(c, nil, s)
			}
			// Items by the rule of abi.ts (BATCH_CHUNK_*); one the host fails goes empty, which the core fails in its turn.
			names, args, nameOffs, argOffs := []byte{}, []byte{}, []uint32{0}, []uint32{0}
			failed, n := map[int]*FingerprintError{}, 0
			for ; base+n < count && n < abi.BATCH_CHUNK_ITEMS; n++ {
				it, err := item(base + n)
				if err != nil {
					failed[n], it = err.(*FingerprintError), [2][]byte{}
				}
				if n > 0 && len(names)+len(args)+len(it[0])+len(it[1]) > abi.BATCH_CHUNK_BYTES {
					break
				}
				names, args = append(names, it[0]...), append(args, it[1]...)
				nameOffs, argOffs = append(nameOffs, uint32(len(names))), append(argOffs, uint32(len(args)))
			}
			column(1, nameOffs, names)
			column(4, argOffs, args)
			desc(abi.BATCH_FLAGS, flags)
			desc(abi.BATCH_COUNT, uint32(n))
			desc(abi.BATCH_BASE, uint32(base))
			outAt := at()
			if err := in.room(ctx, uint32(len(buf)+abi.DIGEST_BYTES*n)); err != nil {
				return err
			}
			in.mem.Write(in.inPtr, buf)
			stop, err := in.call(ctx, in.batch, 0, uint64(outAt))
			if err != nil {
				return err
			}
			digests, _ := in.mem.Read(outAt, uint32(abi.DIGEST_BYTES*stop))
			for i := 0; i < int(stop); i++ {
				out = append(out, string(digests[abi.DIGEST_BYTES*i:abi.DIGEST_BYTES*(i+1)]))
			}
			if int(stop) < n {
				e := coreError(in.readResult()) // "item N: ...", worded by the core
				if h := failed[int(stop)]; h != nil {
					e, h.Message = h, fmt.Sprintf("item %d: %s", base+int(stop), h.Message) // as the core names its own
				}
				e.Index = base + int(stop)
				return e
			}
			base += n
		}
		return nil
	})
	return out, err
}
