package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"cmp"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strconv"
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
	flags, p, o := parts("", opts)
	flags |= asText(*new(T)).flag // texts from Go strings: no BOM is skipped (D12)
	items := func(i int) ([2][]byte, error) { return [2][]byte{[]byte(names[i]), []byte(argsJSON[i])}, nil }
	shared := [5][]byte{[]byte(cmp.Or(o.Kind, abi.DEFAULT_KIND)), nil, p[2], p[3]}
	return batch(ctx, fastModule, flags|abi.F_DIGEST|abi.F_RAW_NAMES, shared, len(names), items, o.Limits)
}

// FingerprintBatch is the fingerprint of each call (as FingerprintCall reads
// it): JSON text (string, []byte) or a Go value, read by the core's call reader.
func FingerprintBatch(ctx context.Context, calls []any, opts *CallOptions) ([]string, error) {
	// Every item as a value stream (text as V_JSON), so one batch holds both.
	w := walker{limit: math.MaxInt}
	items := func(i int) (b [2][]byte, err error) {
		w.buf = w.buf[:0]
		if t, ok := callArg(calls[i]).(textArg); ok {
			w.json(t.b)
		} else {
			w.buf, err = writeValue(w.buf, calls[i], -1, true) // a value D20 rejects: the batch stops at it in its turn
		}
		return [2][]byte{nil, w.buf}, err
	}
	return batch(ctx, engineModule, abi.F_CALL|abi.F_DIGEST|abi.F_VALUES, [5][]byte{}, len(calls), items, cmp.Or(opts, &noCallOptions).Limits)
}

// batch runs count items in chunks: item(i) gives its name and args bytes,
// cols the parts every item shares (kind, -, matchOn, ignoreArgs, -).
func batch(ctx context.Context, m *module, flags uint32, cols [5][]byte, count int, item func(int) ([2][]byte, error),
	own *Limits) (out []string, err error) {
	out = make([]string, 0, count)
	err = m.with(func(in *instance) error {
		if err := in.tell(ctx, own); err != nil {
			return err
		}
		for base := 0; base < count; {
			if err := ctx.Err(); err != nil { // cancelled between chunks
				return err
			}
			// The items of a chunk by the rule of abi.ts (BATCH_CHUNK_*); one the host fails ends it.
			// Names and args are the per-item columns (1 and 4), with offsets; the others are shared.
			var failed error
			data, offs, n := cols, [5][]uint32{1: {0}, 4: {0}}, 0
			for ; base+n < count && n < abi.BATCH_CHUNK_ITEMS; n++ {
				it, err := item(base + n)
				if failed = err; err != nil || n > 0 && len(data[1])+len(data[4])+len(it[0])+len(it[1]) > abi.BATCH_CHUNK_BYTES {
					break
				}
				data[1], data[4] = append(data[1], it[0]...), append(data[4], it[1]...)
				offs[1], offs[4] = append(offs[1], uint32(len(data[1]))), append(offs[4], uint32(len(data[4])))
			}
			// The descriptor, then each column: its offsets (per item only), its data, on a word.
			var desc [abi.BATCH_WORDS]uint32
			buf := make([]byte, 4*abi.BATCH_WORDS)
			for c, d := range data {
				if offs[c] != nil {
					desc[abi.BATCH_COLUMNS+3*c] = in.inPtr + uint32(len(buf))
					buf, _ = binary.Append(buf, binary.LittleEndian, offs[c]) // a []uint32: no reflection
				}
				desc[abi.BATCH_COLUMNS+3*c+1], desc[abi.BATCH_COLUMNS+3*c+2] = in.inPtr+uint32(len(buf)), uint32(len(d))
				buf = append(append(buf, d...), make([]byte, -len(d)&3)...)
			}
			desc[abi.BATCH_FLAGS], desc[abi.BATCH_COUNT], desc[abi.BATCH_BASE] = flags, uint32(n), uint32(base)
			binary.Encode(buf, binary.LittleEndian, desc[:])
			if err := in.room(ctx, uint32(len(buf)+abi.DIGEST_BYTES*n)); err != nil {
				return err
			}
			in.mem.Write(in.inPtr, buf)
			stop, err := in.call(ctx, in.batch, 0, uint64(in.inPtr)+uint64(len(buf)))
			if err != nil {
				return err
			}
			digests, _ := in.mem.Read(in.inPtr+uint32(len(buf)), uint32(abi.DIGEST_BYTES*stop))
			for d := range slices.Chunk(digests, abi.DIGEST_BYTES) {
				out = append(out, string(d))
			}
			if e, ok := failed.(*FingerprintError); int(stop) < n || ok {
				if int(stop) < n {
					e = coreError(in.readResult()) // "item N: ...", worded by the core
				} else {
					e.Message = word(abi.W_ITEM, "", strconv.Itoa(base+n), "").Message + e.Message // as the core names its own
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
