package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"bytes"
	"cmp"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
)

// Go values → the core's value stream (assembly/json/values.ts), per D20:
// what a JSON decoder yields and its typed forms by reflection; time.Time
// as JavaScript's toISOString(); json.RawMessage, structs and marshalers as
// JSON text (V_JSON) that the core reads — encoding/json's wire form.
// Nulls are written, never dropped here: the core drops them (D1).

// Below abi.VALUE_CYCLE_CHECK_DEPTH no cycle is looked for: a cycle repeats,
// so it gets there; deeper than abi.VALUE_MAX_DEPTH is an error (D19).
const cycleDepth, maxDepth = abi.VALUE_CYCLE_CHECK_DEPTH, abi.VALUE_MAX_DEPTH

// A container or followed pointer on the path: its reference (0 for none)
// and, in a container, the walk's place: a member's key (idx -1) or an item's index.
type frame struct {
	ref ref
	key string
	idx int // -2: no place (a pointer, or no member yet)
}

// A reference: pointer and length (a slice shares its address with its prefixes).
type ref struct {
	p uintptr
	n int
}

type walker struct {
	buf   []byte
	call  bool    // x is a whole call: its paths start at the call (D15: args.x is its args member's x)
	limit int     // the stream may not grow past this (a byte limit): then it is over
	open  []frame // each open container or followed pointer: the path
	seen  map[ref]bool
}

// over is raised (panic) when the stream passed its byte limit: the host
// sends limit+1 bytes and the core refuses them by their length.
type over struct{}

var (
	timeType      = reflect.TypeFor[time.Time]()
	rawType       = reflect.TypeFor[json.RawMessage]()
	numberType    = reflect.TypeFor[json.Number]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

// writeValue appends x's stream to buf; once the stream is longer than limit
// bytes it stops there, limit + 1 bytes written. A value D20 rejects is a
// *FingerprintError.
func writeValue(buf []byte, x any, limit int, call bool) (out []byte, err error) {
	w := &walker{buf: buf, limit: len(buf) + limit, call: call}
	if limit < 0 || w.limit < 0 {
		w.limit = math.MaxInt
	}
	defer func() {
		switch e := recover().(type) {
		case nil:
		case over:
			out = w.buf[:w.limit+1]
		case *FingerprintError:
			err = e
		default:
			panic(e)
		}
	}()
	w.any(x)
	return w.buf, nil
}

func (w *walker) check() {
	if len(w.buf) > w.limit {
		panic(over{})
	}
}

// any: the decoder's types first (a type switch is cheaper than reflection).
func (w *walker) any(x any) {
	switch v := x.(type) {
	case textArg: // JSON text, sent as it is (only ever the whole args)
		w.buf = append(w.buf, v.b...)
		w.check()
	case keysArg: // a keep-mask request's args: an object of the keys (values true), in this order
		w.container(abi.V_OBJECT, false, len(v), ref{}, func() {
			for _, k := range v {
				w.at(k, -1)
				w.buf = append(w.buf, abi.V_TRUE)
			}
		})
	case nil:
		w.buf = append(w.buf, abi.V_NULL)
	case string:
		w.str(v)
	case float64:
		w.num(v)
	case bool:
		w.bool(v)
	case int:
		w.num(float64(v))
	case map[string]any:
		w.container(abi.V_OBJECT, v == nil, len(v), ref{reflect.ValueOf(v).Pointer(), -2}, func() {
			for k, e := range v {
				w.at(k, -1)
				w.any(e)
			}
		})
	case []any:
		w.container(abi.V_ARRAY, v == nil, len(v), ref{reflect.ValueOf(v).Pointer(), len(v)}, func() {
			for i, e := range v {
				w.at("", i)
				w.any(e)
			}
		})
	default:
		w.value(reflect.ValueOf(x))
	}
}

// value: a Go value by reflection, by its type and kind.
func (w *walker) value(v reflect.Value) {
	if !v.IsValid() {
		w.buf = append(w.buf, abi.V_NULL)
		return
	}
	t, k := v.Type(), v.Kind()
	switch {
	case t == timeType:
		// A time value in ms (floored), which the core prints as toISOString() does (D15/D16).
		t := v.Interface().(time.Time)
		w.double(abi.V_DATE, float64(t.Unix())*1000+float64(t.Nanosecond()/1e6))
	case t == numberType:
		// A JSON number literal, the nearest double (D11); out of range: ±Inf, which the core makes null.
		f, err := strconv.ParseFloat(v.String(), 64)
		if !json.Valid([]byte(v.String())) || err != nil && !errors.Is(err, strconv.ErrRange) {
			w.fail(abi.W_GO_NUMBER, strconv.Quote(v.String()))
		}
		w.num(f)
	case (t == rawType || k == reflect.Pointer || k == reflect.Interface) && v.IsNil():
		w.buf = append(w.buf, abi.V_NULL)
	case t == rawType:
		w.json(v.Bytes())
	// A method on the pointer alone (MarshalJSON with a pointer receiver) is the type's own encoding.
	case k == reflect.Pointer && marshals(t) && !marshals(t.Elem()) && !special(t.Elem()):
		w.marshal(v)
	case k == reflect.Pointer || k == reflect.Interface:
		var p ref
		if k == reflect.Pointer {
			p = ref{v.Pointer(), -1}
		}
		w.enter(p)
		w.value(v.Elem())
		w.leave()
	case marshals(t) || k == reflect.Struct || k == reflect.Map && t.Key().Kind() != reflect.String:
		w.marshal(v) // encoding/json's form: its tags, omitempty, other map keys as it writes them
	case k == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		w.fail(abi.W_GO_VALUE, "[]byte")
	case k == reflect.Bool:
		w.bool(v.Bool())
	case v.CanInt():
		w.num(float64(v.Int()))
	case v.CanUint():
		w.num(float64(v.Uint()))
	case v.CanFloat():
		w.num(v.Float())
	case k == reflect.String:
		w.str(v.String())
	case k == reflect.Map:
		w.container(abi.V_OBJECT, v.IsNil(), v.Len(), ref{v.Pointer(), -2}, func() {
			for it := v.MapRange(); it.Next(); {
				w.at(it.Key().String(), -1)
				w.value(it.Value())
			}
		})
	case k == reflect.Slice || k == reflect.Array:
		var p ref
		if k == reflect.Slice && v.Len() > 0 {
			p = ref{v.Pointer(), v.Len()}
		}
		w.container(abi.V_ARRAY, k == reflect.Slice && v.IsNil(), v.Len(), p, func() {
			for i := 0; i < v.Len(); i++ {
				w.at("", i)
				w.value(v.Index(i))
			}
		})
	default: // channels, functions, complex numbers, unsafe pointers
		w.fail(abi.W_GO_VALUE, t.String())
	}
}

// isNil: v is written as null (a nil interface, pointer, map or slice) without reading below it.
func isNil(v reflect.Value) bool {
	if v.Kind() == reflect.Interface {
		v = v.Elem() // a map's value: its dynamic value (invalid when nil)
	}
	k := v.Kind()
	return !v.IsValid() || (k == reflect.Pointer || k == reflect.Map || k == reflect.Slice) && v.IsNil()
}

func marshals(t reflect.Type) bool { return t.Implements(marshalerType) || t.Implements(textType) }

func special(t reflect.Type) bool { return t == timeType || t == rawType || t == numberType }

// enter and leave bracket a container or a followed pointer: depth, and
// (below cycleDepth) the references on the path, for cycles.
func (w *walker) enter(u ref) {
	d := len(w.open)
	if d >= maxDepth {
		w.fail(abi.W_TOO_DEEP, strconv.Itoa(maxDepth))
	}
	w.open = append(w.open, frame{ref: u, idx: -2})
	if d < cycleDepth || u.p == 0 {
		return
	}
	if w.seen == nil {
		w.seen = map[ref]bool{}
	}
	if w.seen[u] {
		// A cycle: the path to the first container on it that repeats an earlier one.
		first := map[ref]bool{}
		for i, f := range w.open {
			if f.ref.p != 0 && first[f.ref] {
				w.open = w.open[:i]
				break
			}
			first[f.ref] = true
		}
		w.fail(abi.W_CIRCULAR)
	}
	w.seen[u] = true
}

func (w *walker) leave() {
	d := len(w.open) - 1
	if d >= cycleDepth {
		delete(w.seen, w.open[d].ref)
	}
	w.open = w.open[:d]
}

// container writes an object or array: null when nil, else its tag, count and (body) members or items.
func (w *walker) container(tag byte, isNil bool, n int, p ref, body func()) {
	if isNil {
		w.buf = append(w.buf, abi.V_NULL)
		return
	}
	w.enter(p)
	w.buf = binary.LittleEndian.AppendUint32(append(w.buf, tag), uint32(n))
	w.check()
	body()
	w.leave()
}

// at starts a member (its key written) or an item: the innermost container's place.
func (w *walker) at(key string, idx int) {
	f := &w.open[len(w.open)-1]
	if f.key, f.idx = key, idx; idx < 0 {
		w.str(key)
	}
}

func (w *walker) bool(b bool) {
	w.buf = append(w.buf, abi.V_FALSE)
	if b {
		w.buf[len(w.buf)-1] = abi.V_TRUE
	}
}

// num: a double; NaN and ±Inf travel as they are and the core makes them null (D1).
func (w *walker) num(f float64) { w.double(abi.V_NUMBER, f) }

func (w *walker) double(tag byte, f float64) {
	w.buf = binary.LittleEndian.AppendUint64(append(w.buf, tag), math.Float64bits(f))
}

// keysArg: the top-level keys of a map, for the core's keep-mask (selection decided once, D9).
type keysArg []string

// keepMask asks the core which members of a map args (string keys: a JSON
// object by reflection) selection keeps (D9); a value it leaves out is never
// read, and left stands for it (nil: none). The args as they are otherwise.
func keepMask(flags uint32, p [][]byte, args any, own *Limits, left any) (any, error) {
	m := reflect.ValueOf(args)
	if flags == 0 || m.Kind() != reflect.Map || m.Type().Key().Kind() != reflect.String || m.IsNil() || marshals(m.Type()) {
		return args, nil
	}
	keys := make(keysArg, 0, m.Len())
	for it := m.MapRange(); it.Next(); {
		keys = append(keys, it.Key().String())
	}
	mask, err := call(fastModule, abi.RQ_KEEP_MASK|flags, [][]byte{nil, nil, p[2], p[3]}, keys, own)
	if err != nil || len(mask.text) == 0 {
		return args, err
	}
	// The mask: "M" or "I", then "1" per member to walk.
	out := make(map[string]any, len(keys))
	for i, k := range keys {
		v := m.MapIndex(reflect.ValueOf(k).Convert(m.Type().Key()))
		switch {
		case mask.text[i+1] == '1':
			out[k] = v.Interface()
		case left != nil && isNil(v):
			out[k] = nil // a member holding null stays null: "dropped" names only those holding a value
		case left != nil:
			out[k] = left
		}
	}
	return out, nil
}

// str: V_STR_CLEAN when nothing needs escaping (D6), else V_STR; invalid UTF-8 is an error (D20).
func (w *walker) str(s string) {
	tag, ascii := byte(abi.V_STR_CLEAN), true
	for _, c := range []byte(s) { // no copy: the compiler ranges over s itself
		if c < 0x20 || c == '"' || c == '\\' {
			tag = abi.V_STR
		} else if c >= 0x80 {
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(s) {
		w.fail(abi.W_GO_UTF8)
	}
	item(w, tag, s)
}

// json: JSON text the core reads itself (D11–D14).
func (w *walker) json(b []byte) { item(w, abi.V_JSON, b) }

// item: a tag, the length, the bytes.
func item[T ~string | ~[]byte](w *walker, tag byte, b T) {
	w.buf = binary.LittleEndian.AppendUint32(append(w.buf, tag), uint32(len(b)))
	w.buf = append(w.buf, b...)
	w.check()
}

// marshal: encoding/json's own encoding of the value (its tags, omitempty,
// MarshalJSON), the form Go puts on the wire (D20).
func (w *walker) marshal(v reflect.Value) {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		w.fail(abi.W_GO_VALUE_CAUSE, v.Type().String(), err.Error())
	}
	// encoding/json writes an invalid UTF-8 byte as the escape \ufffd (a real U+FFFD stays raw).
	if bytes.Contains(b, []byte(`\ufffd`)) {
		w.fail(abi.W_GO_UTF8_IN, v.Type().String())
	}
	w.json(b)
}

// fail: the value here is refused; every such word ends with the path (its error's Path too): where
// the walk is, as the core writes it in D15's notation (args.items[3].when) from the keys and indices (abi.F_PATH).
func (w *walker) fail(id int, params ...string) {
	at := make([]any, 0, len(w.open)+1)
	if w.call {
		at = append(at, nil) // null first: the keys start at a whole call (abi.F_PATH)
	}
	for _, f := range w.open {
		if f.idx == -1 {
			at = append(at, f.key)
		} else if f.idx >= 0 {
			at = append(at, f.idx)
		}
	}
	b, _ := json.Marshal(at) // strings and ints only
	r, _ := call(fastModule, abi.F_PATH|abi.F_TEXT, make([][]byte, 4), textArg{b: b}, nil)
	p := cmp.Or(string(r.text), "args") // none when no module writes it: the walk's start
	panic(word(id, p, append(params, p)...))
}
