package wiregen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// HotOutput is the name of the generated file of fast paths in package wire.
const HotOutput = "hot.go"

// Hot lists the messages that get a fast Append and Decode (HotOutput): the ones a server
// handles per frame per recipient. Every other message is encoded and decoded by its walk.
var Hot = []string{
	"PlayerSync", "RemotePlayerSync", "VehicleSync", "RemoteVehicleSync", "DamageReport",
	"WeaponShot", "VehicleShot", "RemoteWeaponShot", "RemoteVehicleShot",
}

func isHot(typ string) bool {
	for _, h := range Hot {
		if h == typ {
			return true
		}
	}
	return false
}

// op is one step of a flattened walk: a field primitive (in wire order, with its offset)
// or a rule.
type op struct {
	prim   string   // u8 u16 u32 id16 enum8 bool bits bit bitsUint f32 vec3 quat velocity angle rule
	expr   string   // the Go value (m.Stamp.Rev); for a rule, its condition on m
	name   string   // the field's name in the layout (Stamp.Rev)
	typ    string   // the Go type of the value, for decode
	off    int      // byte offset in the message, header included
	at     int      // bit fields: first bit
	width  int      // bitsUint: width in bits
	arg    string   // id16: "none" flag; enum8: count; bitsUint: max; f32/vec3: span; quat: optional
	local  string   // the decode local holding the value
	group  *op      // bit fields: their group's byte
	used   int      // bits: bits assigned by the group
	kind   string   // rule: the kind
	ruleOn ast.Expr // rule: its condition, to rewrite onto the decode locals
}

// walks holds the walk methods and the helper functions (hitRule) of package wire by name.
type walks struct {
	fset    *token.FileSet
	methods map[string]*ast.FuncDecl // receiver type -> walk
	funcs   map[string]*ast.FuncDecl // plain functions taking a *codec first
	spans   map[string][2]string     // span constant -> lo, hi expressions
}

func loadWalks(dir string) (*walks, error) {
	w := &walks{fset: token.NewFileSet(), methods: map[string]*ast.FuncDecl{}, funcs: map[string]*ast.FuncDecl{}, spans: map[string][2]string{}}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") || filepath.Base(n) == HotOutput || filepath.Base(n) == Output {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(src, []byte("//go:build ignore")) {
			continue
		}
		f, err := parser.ParseFile(w.fset, n, src, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if fn.Recv != nil && fn.Name.Name == "walk" {
				if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
					w.methods[star.X.(*ast.Ident).Name] = fn
				}
				continue
			}
			if fn.Recv != nil && fn.Name.Name == "bounds" {
				w.readSpans(fn)
			}
			if fn.Recv == nil && len(fn.Type.Params.List) > 0 {
				if star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok && id.Name == "codec" {
						w.funcs[fn.Name.Name] = fn
					}
				}
			}
		}
	}
	if len(w.spans) == 0 {
		return nil, fmt.Errorf("wiregen: no span bounds in %s", dir)
	}
	return w, nil
}

// readSpans reads func (s span) bounds: case spanX: return lo, hi; the final return is spanAny's.
func (w *walks) readSpans(fn *ast.FuncDecl) {
	for _, st := range fn.Body.List {
		switch st := st.(type) {
		case *ast.SwitchStmt:
			for _, cc := range st.Body.List {
				cc := cc.(*ast.CaseClause)
				ret := cc.Body[0].(*ast.ReturnStmt)
				for _, e := range cc.List {
					w.spans[e.(*ast.Ident).Name] = [2]string{w.src(ret.Results[0]), w.src(ret.Results[1])}
				}
			}
		case *ast.ReturnStmt:
			w.spans["spanAny"] = [2]string{w.src(st.Results[0]), w.src(st.Results[1])}
		}
	}
}

// src prints an expression on one line, whatever positions its nodes carry.
func (w *walks) src(e ast.Node) string {
	x, ok := e.(ast.Expr)
	if !ok {
		return fmt.Sprintf("%T", e)
	}
	return types.ExprString(x)
}

// subst replaces identifiers in e by expressions (a receiver or a helper's parameters).
func subst(e ast.Expr, by map[string]ast.Expr) ast.Expr {
	if len(by) == 0 {
		return e
	}
	var walk func(ast.Expr) ast.Expr
	walk = func(e ast.Expr) ast.Expr {
		switch x := e.(type) {
		case *ast.Ident:
			if r, ok := by[x.Name]; ok {
				return r
			}
			return x
		case *ast.SelectorExpr:
			return &ast.SelectorExpr{X: walk(x.X), Sel: x.Sel}
		case *ast.UnaryExpr:
			return &ast.UnaryExpr{Op: x.Op, X: walk(x.X)}
		case *ast.BinaryExpr:
			return &ast.BinaryExpr{X: walk(x.X), Op: x.Op, Y: walk(x.Y)}
		case *ast.ParenExpr:
			return &ast.ParenExpr{X: walk(x.X)}
		case *ast.StarExpr:
			return &ast.StarExpr{X: walk(x.X)}
		case *ast.CallExpr:
			args := make([]ast.Expr, len(x.Args))
			for i, a := range x.Args {
				args[i] = walk(a)
			}
			return &ast.CallExpr{Fun: walk(x.Fun), Args: args}
		case *ast.CompositeLit:
			return x // a type's zero value (Vec3{}): nothing to replace
		case *ast.BasicLit:
			return x
		}
		panic(fmt.Sprintf("wiregen: unsupported expression %T in a walk", e))
	}
	return walk(e)
}

// flatten turns the walk of typ into ops: nested walks and rule helpers are inlined.
func (w *walks) flatten(typ string) ([]*op, error) {
	fn, ok := w.methods[typ]
	if !ok {
		return nil, fmt.Errorf("wiregen: %s has no walk", typ)
	}
	var ops []*op
	off := 2 // Version and ID
	var group *op
	recv := fn.Recv.List[0].Names[0].Name
	var body func(fn *ast.FuncDecl, by map[string]ast.Expr) error
	body = func(fn *ast.FuncDecl, by map[string]ast.Expr) error {
		for _, st := range fn.Body.List {
			es, ok := st.(*ast.ExprStmt)
			if !ok {
				return fmt.Errorf("wiregen: %s: statement %s is not a call", typ, w.src(st))
			}
			call := es.X.(*ast.CallExpr)
			args := make([]ast.Expr, len(call.Args))
			for i, a := range call.Args {
				args[i] = subst(a, by)
			}
			arg := func(i int) string { return w.src(args[i]) }
			name := func(i int) string {
				s, err := strconv.Unquote(arg(i))
				if err != nil {
					panic(fmt.Sprintf("wiregen: %s: field name %s is not a string literal", typ, arg(i)))
				}
				return s
			}
			// value strips & and a conversion: (*uint8)(&m.Ref.Kind) -> m.Ref.Kind.
			value := func(i int) string {
				e := args[i]
				if c, ok := e.(*ast.CallExpr); ok {
					e = c.Args[0]
				}
				return w.src(e.(*ast.UnaryExpr).X)
			}
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				if fun.Sel.Name == "walk" { // a nested walk: m.Rewind.walk(c)
					t := typeOfNested(w.src(fun.X))
					nested, ok := w.methods[t]
					if !ok {
						return fmt.Errorf("wiregen: %s: no walk for %s", typ, t)
					}
					inner := map[string]ast.Expr{nested.Recv.List[0].Names[0].Name: subst(fun.X, by)}
					if err := body(nested, inner); err != nil {
						return err
					}
					continue
				}
				o := &op{prim: fun.Sel.Name, off: off}
				switch fun.Sel.Name {
				case "u8":
					o.expr, o.name, o.typ = value(0), name(1), "uint8"
					off++
				case "u16":
					o.expr, o.name, o.typ = value(0), name(1), "uint16"
					off += 2
				case "u32":
					o.expr, o.name, o.typ = value(0), name(1), "uint32"
					off += 4
				case "id16", "player":
					o.expr, o.name, o.arg, o.typ = value(0), name(1), arg(2), "uint16"
					if fun.Sel.Name == "player" {
						o.typ = "PlayerID"
					}
					o.prim = "id16"
					off += 2
				case "enum8":
					o.expr, o.name, o.arg, o.typ = value(0), name(1), arg(2), name(3)
					off++
				case "boolean":
					o.expr, o.name, o.typ, o.prim = value(0), name(1), "bool", "bool"
					off++
				case "stamp": // Stamp.Teammate as a bool byte, Stamp.Rev
					v := value(0)
					ops = append(ops, &op{prim: "bool", expr: v + ".Teammate", name: "Stamp.Teammate", typ: "bool", off: off, local: "vStampTeammate"},
						&op{prim: "u16", expr: v + ".Rev", name: "Stamp.Rev", typ: "uint16", off: off + 1, local: "vStampRev"})
					off += 3
					continue
				case "bitsBegin":
					o.name, o.prim = name(0), "bits"
					group = o
					off++
				case "bit":
					o.expr, o.name, o.typ, o.off, o.at, o.group = value(0), name(1), "bool", group.off, group.used, group
					group.used++
				case "bitsUint":
					width, err := strconv.Atoi(arg(2))
					if err != nil {
						return fmt.Errorf("wiregen: %s: bit width %s", typ, arg(2))
					}
					o.expr, o.name, o.typ, o.off, o.at, o.width, o.arg, o.group = value(0), name(1), "uint8", group.off, group.used, width, arg(3), group
					group.used += width
				case "bitsEnd":
					group = nil
					continue
				case "f32":
					o.expr, o.name, o.arg, o.typ = value(0), name(1), arg(2), "float32"
					off += 4
				case "vec3", "position":
					o.expr, o.name, o.typ, o.prim = value(0), name(1), "Vec3", "vec3"
					o.arg = "spanCoord"
					if fun.Sel.Name == "vec3" {
						o.arg = arg(2)
					}
					off += 12
				case "quat":
					o.expr, o.name, o.arg, o.typ = value(0), name(1), arg(2), "Quat"
					off += 16
				case "velocity":
					o.expr, o.name, o.typ = value(0), name(1), "Vec3"
					off += 6
				case "angle":
					o.expr, o.name, o.typ = value(0), name(1), "float32"
					off += 2
				case "rule":
					o.ruleOn, o.expr, o.name, o.kind = args[0], arg(0), name(1), arg(2)
				default:
					return fmt.Errorf("wiregen: %s: unknown codec call %s", typ, fun.Sel.Name)
				}
				if o.prim != "rule" && o.prim != "bits" {
					o.local = "v" + strings.ReplaceAll(o.name, ".", "")
				}
				ops = append(ops, o)
			case *ast.Ident: // a rule helper: hitRule(c, m.HitType, m.HitID)
				h, ok := w.funcs[fun.Name]
				if !ok {
					return fmt.Errorf("wiregen: %s: unknown helper %s", typ, fun.Name)
				}
				inner := map[string]ast.Expr{}
				i := 0
				for _, p := range h.Type.Params.List {
					for _, n := range p.Names {
						if i > 0 {
							inner[n.Name] = args[i]
						}
						i++
					}
				}
				if err := body(h, inner); err != nil {
					return err
				}
			default:
				return fmt.Errorf("wiregen: %s: unsupported call %s", typ, w.src(call))
			}
		}
		return nil
	}
	// The generated methods name their receiver m, whatever the walk calls it.
	if err := body(fn, map[string]ast.Expr{recv: ast.NewIdent("m")}); err != nil {
		return nil, err
	}
	return ops, nil
}

// typeOfNested names the type of a nested walk's receiver: m.Rewind -> Rewind (the
// field's name is its type's name, which every nested walk of package wire follows;
// flatten fails on a name without a walk).
func typeOfNested(x string) string {
	i := strings.LastIndex(x, ".")
	return x[i+1:]
}

// size is the message's size in bytes.
func size(ops []*op) int {
	n := 2
	for _, o := range ops {
		switch o.prim {
		case "u8", "enum8", "bool", "bits":
			n = max(n, o.off+1)
		case "u16", "id16", "angle":
			n = max(n, o.off+2)
		case "u32", "f32":
			n = max(n, o.off+4)
		case "vec3":
			n = max(n, o.off+12)
		case "quat":
			n = max(n, o.off+16)
		case "velocity":
			n = max(n, o.off+6)
		}
	}
	return n
}

// GenerateHot reads the walks of package wire in dir and returns the formatted source
// of HotOutput: the fast Append and Decode of every message in Hot.
//
// It reads each hot message's walk method (go/ast) and flattens it into the sequence of
// codec calls it makes, in order: a nested walk (m.Rewind.walk(c)) is inlined with its
// receiver replaced by the field, a rule helper (hitRule(c, m.HitType, m.HitID)) with its
// parameters replaced by the arguments, c.stamp by its two fields. Offsets follow from
// the primitives' widths and a span's bounds from func (span) bounds, so the layout is
// still written once, in the walk. From the flat sequence it writes:
//
//   - Append: every check (ids, enums, bit numbers, spans, quats, velocities, angles,
//     rules) in one condition without names; when it fails, the same checks again
//     through the named fault helpers of fast.go, in the walk's order, so the first
//     failure (and the error) is the walk's; then the bytes, written in place.
//   - Decode: the header and length at once, every check on the raw bytes and the rules
//     (on locals holding the fields they read) in one condition, then the fields read
//     and stored one by one; when it fails, the walk itself decodes and names the
//     failure (decodeByWalk).
//
// Each first pass is exactly its walk's checks, which TestFastPathsMatchTheWalk and
// FuzzDecode hold it to; a first pass stricter than the walk would only cost time (the
// walk then accepts), never change a result.
func GenerateHot(dir string) ([]byte, error) {
	w, err := loadWalks(dir)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(hotHeader)
	for _, typ := range Hot {
		ops, err := w.flatten(typ)
		if err != nil {
			return nil, err
		}
		g := &gen{w: w, typ: typ, id: "ID" + typ, ops: ops, size: size(ops), b: &b}
		if err := g.appendMethod(); err != nil {
			return nil, err
		}
		if err := g.decodeMethod(); err != nil {
			return nil, err
		}
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("wiregen: formatting hot.go: %w\n%s", err, b.Bytes())
	}
	return out, nil
}

const hotHeader = `// Code generated by wiregen from the walks (msg_*.go); DO NOT EDIT.
// Run ` + "`go generate ./wire`" + ` after changing a walk or the list of hot messages.

package wire

import "math"

// Unrolled Append and Decode of the hot messages; see fast.go for why and for how they
// are held to the walk. Each first runs every check at once, without naming a failure;
// only when one failed does it look again to name it: Append checks in the walk's order
// (fields in wire order, then the rules), Decode runs the walk itself, so the first
// failure, and so the error, is the walk's.
`

type gen struct {
	w    *walks
	typ  string
	id   string
	ops  []*op
	size int
	b    *bytes.Buffer
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(g.b, format+"\n", args...) }

func (g *gen) span(s string) (lo, hi string) {
	b, ok := g.w.spans[s]
	if !ok {
		panic("wiregen: unknown span " + s)
	}
	return b[0], b[1]
}

func inRange(v, lo, hi string) string { return "(" + v + " >= " + lo + " && " + v + " <= " + hi + ")" }

func (g *gen) appendMethod() error {
	g.p("\n// Append validates m and appends its %s encoding to dst; see Message.", g.typ)
	g.p("func (m *%s) Append(dst []byte) ([]byte, error) {", g.typ)
	var checks []string
	for _, o := range g.ops {
		switch o.prim {
		case "id16":
			if o.arg == "false" {
				checks = append(checks, "uint16("+o.expr+") != 0xFFFF")
			}
		case "enum8":
			checks = append(checks, "uint8("+o.expr+") < "+o.arg)
		case "bitsUint":
			checks = append(checks, o.expr+" <= "+o.arg)
		case "f32":
			lo, hi := g.span(o.arg)
			checks = append(checks, inRange(o.expr, lo, hi))
		case "vec3":
			lo, hi := g.span(o.arg)
			for _, a := range []string{"X", "Y", "Z"} {
				checks = append(checks, inRange(o.expr+"."+a, lo, hi))
			}
		case "quat":
			checks = append(checks, "quatOK("+o.expr+", "+o.arg+")")
		case "velocity":
			g.p("%sX, %sXok := velocityStep(%s.X)", o.local, o.local, o.expr)
			g.p("%sY, %sYok := velocityStep(%s.Y)", o.local, o.local, o.expr)
			g.p("%sZ, %sZok := velocityStep(%s.Z)", o.local, o.local, o.expr)
			checks = append(checks, o.local+"Xok && "+o.local+"Yok && "+o.local+"Zok")
		case "angle":
			checks = append(checks, "finite("+o.expr+")")
		case "rule":
			checks = append(checks, "("+o.expr+")")
		}
	}
	if len(checks) > 0 {
		g.p("if !(%s) {", strings.Join(checks, " &&\n"))
		g.p("var f fault")
		for _, o := range g.ops {
			switch o.prim {
			case "id16":
				if o.arg == "false" {
					g.p("f.subject(uint16(%s), %q)", o.expr, o.name)
				}
			case "enum8":
				g.p("f.enum(uint8(%s), %s, %q)", o.expr, o.arg, o.name)
			case "bitsUint":
				g.p("f.atMost(%s, %s, %q)", o.expr, o.arg, o.name)
			case "f32":
				g.p("f.span(%s, %s, %q)", o.expr, o.arg, o.name)
			case "vec3":
				g.p("f.vec3(%s, %s, %q)", o.expr, o.arg, o.name)
			case "quat":
				g.p("f.quat(%s, %s, %q)", o.expr, o.arg, o.name)
			case "velocity":
				g.p("f.velocity(%s, %q)", o.expr, o.name)
			case "angle":
				g.p("f.angle(%s, %q)", o.expr, o.name)
			case "rule":
				g.p("f.rule(%s, %s, %q)", o.expr, o.kind, o.name)
			}
		}
		g.p("if f.kind != kindNone {\nreturn dst, f.err(%s)\n}\n}", g.id)
	}
	g.p("out, b := extend(dst, %d)", g.size)
	g.p("_ = b[%d]", g.size-1)
	g.p("b[0], b[1] = Version, byte(%s)", g.id)
	groups := map[*op][]string{}
	for _, o := range g.ops {
		switch o.prim {
		case "bit":
			groups[o.group] = append(groups[o.group], fmt.Sprintf("bit(%s, %d)", o.expr, o.at))
		case "bitsUint":
			groups[o.group] = append(groups[o.group], fmt.Sprintf("(%s&%#x)<<%d", o.expr, 1<<o.width-1, o.at))
		}
	}
	for _, o := range g.ops {
		r := fmt.Sprintf("b[%d:%d]", o.off, o.off+2)
		switch o.prim {
		case "u8":
			g.p("b[%d] = %s", o.off, o.expr)
		case "enum8":
			g.p("b[%d] = uint8(%s)", o.off, o.expr)
		case "bool":
			g.p("b[%d] = putBool(%s)", o.off, o.expr)
		case "bits":
			if len(groups[o]) == 0 {
				g.p("b[%d] = 0", o.off)
			} else {
				g.p("b[%d] = %s", o.off, strings.Join(groups[o], " | "))
			}
		case "u16", "id16":
			g.p("le.PutUint16(%s, %s)", r, conv("uint16", o.typ, o.expr))
		case "u32":
			g.p("le.PutUint32(b[%d:%d], %s)", o.off, o.off+4, o.expr)
		case "f32":
			g.p("putF32(b[%d:%d], %s)", o.off, o.off+4, o.expr)
		case "vec3":
			g.p("putVec3(b[%d:%d], %s)", o.off, o.off+12, o.expr)
		case "quat":
			g.p("putQuat(b[%d:%d], %s)", o.off, o.off+16, o.expr)
		case "velocity":
			for i, a := range []string{"X", "Y", "Z"} {
				g.p("le.PutUint16(b[%d:%d], uint16(%s%s))", o.off+2*i, o.off+2*i+2, o.local, a)
			}
		case "angle":
			g.p("if a := float64(%s); a >= 0 && a < turn {", o.expr)
			g.p("le.PutUint16(%s, wireTurn(a))\n} else {\nle.PutUint16(%s, angleToWire(%s))\n}", r, r, o.expr)
		}
	}
	g.p("return out, nil\n}")
	return nil
}

func (g *gen) decodeMethod() error {
	g.p("\n// Decode decodes one %s from b into m; on error m is unchanged. See Message.", g.typ)
	g.p("func (m *%s) Decode(b []byte) error {", g.typ)
	g.p("if len(b) != %d || b[0] != Version || ID(b[1]) != %s {\nreturn checkHeader(b, %s)\n}", g.size, g.id, g.id)
	g.p("_ = b[%d]", g.size-1)
	// First the value of each field as an expression of b (val), the lines that must run
	// before the checks (pre: the bit groups' bytes, the raw velocity steps, the quats)
	// and the checks on the raw bytes.
	var pre, checks, rules []string
	val := map[*op]string{}
	locals := map[string]string{} // the Go value (m.Stamp.Rev) -> its local
	for _, o := range g.ops {
		if o.local != "" {
			locals[o.expr] = o.local
		}
		r := fmt.Sprintf("b[%d:%d]", o.off, o.off+2)
		switch o.prim {
		case "u8":
			val[o] = fmt.Sprintf("b[%d]", o.off)
		case "enum8":
			val[o] = fmt.Sprintf("%s(b[%d])", o.typ, o.off)
			checks = append(checks, fmt.Sprintf("b[%d] < %s", o.off, o.arg))
		case "bool":
			val[o] = fmt.Sprintf("b[%d] == 1", o.off)
			checks = append(checks, fmt.Sprintf("b[%d] <= 1", o.off))
		case "bits":
			pre = append(pre, fmt.Sprintf("%s := b[%d]", groupLocal(o), o.off))
			checks = append(checks, fmt.Sprintf("%s>>%d == 0", groupLocal(o), o.used))
		case "bit":
			val[o] = fmt.Sprintf("%s&%#x != 0", groupLocal(o.group), 1<<o.at)
		case "bitsUint":
			val[o] = fmt.Sprintf("%s >> %d & %#x", groupLocal(o.group), o.at, 1<<o.width-1)
			checks = append(checks, "("+val[o]+") <= "+o.arg)
		case "u16":
			val[o] = "le.Uint16(" + r + ")"
		case "id16":
			val[o] = conv(o.typ, "uint16", "le.Uint16("+r+")")
			if o.arg == "false" {
				checks = append(checks, "le.Uint16("+r+") != 0xFFFF")
			}
		case "u32":
			val[o] = fmt.Sprintf("le.Uint32(b[%d:%d])", o.off, o.off+4)
		case "f32": // the bits read once, for the check and the value
			lo, hi := g.span(o.arg)
			pre = append(pre, fmt.Sprintf("%sBits := le.Uint32(b[%d:%d])", o.local, o.off, o.off+4))
			val[o] = "math.Float32frombits(" + o.local + "Bits)"
			checks = append(checks, fmt.Sprintf("spanBits(%sBits, %s, %s)", o.local, lo, hi))
		case "vec3":
			lo, hi := g.span(o.arg)
			var axes []string
			for i, a := range []string{"X", "Y", "Z"} {
				pre = append(pre, fmt.Sprintf("%s%s := le.Uint32(b[%d:%d])", o.local, a, o.off+4*i, o.off+4*i+4))
				axes = append(axes, "math.Float32frombits("+o.local+a+")")
				checks = append(checks, fmt.Sprintf("spanBits(%s%s, %s, %s)", o.local, a, lo, hi))
			}
			val[o] = "Vec3{" + strings.Join(axes, ", ") + "}"
		case "quat":
			pre = append(pre, fmt.Sprintf("%s, %sOK := getQuatOK(b[%d:%d], %s)", o.local, o.local, o.off, o.off+16, o.arg))
			checks = append(checks, o.local+"OK")
		case "velocity":
			var axes []string
			for i, a := range []string{"X", "Y", "Z"} {
				pre = append(pre, fmt.Sprintf("%s%s := int16(le.Uint16(b[%d:%d]))", o.local, a, o.off+2*i, o.off+2*i+2))
				checks = append(checks, fmt.Sprintf("%s%s >= -maxVelocityStep", o.local, a))
				axes = append(axes, fmt.Sprintf("float32(%s%s) / VelocityScale", o.local, a))
			}
			val[o] = "Vec3{" + strings.Join(axes, ", ") + "}"
		case "angle":
			val[o] = "angleFromWire(le.Uint16(" + r + "))"
		case "rule":
			on := g.w.src(onLocals(o.ruleOn, locals, g.w))
			if readsM.MatchString(on) {
				return fmt.Errorf("wiregen: %s: rule %s reads a field the walk does not decode", g.typ, o.expr)
			}
			rules = append(rules, "("+on+")")
		}
	}
	// The fields a rule reads get a local before the checks; the others are read from
	// b only once everything passed.
	ruleText := strings.Join(rules, " ")
	for _, o := range g.ops {
		if v, ok := val[o]; ok && regexp.MustCompile(`\b`+o.local+`\b`).MatchString(ruleText) {
			pre = append(pre, o.local+" := "+v)
			val[o] = o.local
		}
		if o.prim == "quat" {
			val[o] = o.local
		}
	}
	for _, l := range pre {
		g.p("%s", l)
	}
	// Integer checks and rules first, the float checks last: the order of a conjunction
	// changes no result, and this one compiles to the tightest code.
	var ints, floats []string
	for _, c := range checks {
		if strings.HasPrefix(c, "spanBits(") || strings.HasSuffix(c, "OK") {
			floats = append(floats, c)
		} else {
			ints = append(ints, c)
		}
	}
	checks = append(append(ints, rules...), floats...)
	if len(checks) == 0 {
		checks = []string{"true"}
	}
	g.p("if %s {", strings.Join(checks, " &&\n"))
	g.p("// Field by field: a composite literal would be built aside and copied.")
	for _, o := range g.ops {
		if o.local == "" {
			continue
		}
		g.p("%s = %s", o.expr, val[o])
	}
	g.p("return nil\n}")
	g.p("return m.decodeByWalk(b)\n}")
	g.p("\n// decodeByWalk decodes b with the walk, which names the first failure.")
	g.p("func (m *%s) decodeByWalk(b []byte) error {", g.typ)
	g.p("c, err := startDecode(b, %s)\nif err != nil {\nreturn err\n}", g.id)
	g.p("var t %s\nt.walk(&c)\nif err := c.endDecode(); err != nil {\nreturn err\n}\n*m = t\nreturn nil\n}", g.typ)
	return nil
}

func groupLocal(o *op) string { return "g" + o.name }

// readsM finds a read of the message (m.X) left in a rule after onLocals: a field the
// flattened walk does not decode, which the decode would read from the old value.
var readsM = regexp.MustCompile(`(^|[^A-Za-z0-9_.])m\.`)

// conv converts v of type from to type to, when they differ.
func conv(to, from, v string) string {
	if to == from {
		return v
	}
	return to + "(" + v + ")"
}

// onLocals rewrites a rule's condition on m to the decode locals.
func onLocals(e ast.Expr, locals map[string]string, w *walks) ast.Expr {
	var walk func(ast.Expr) ast.Expr
	walk = func(e ast.Expr) ast.Expr {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if l, ok := locals[w.src(x)]; ok {
				return ast.NewIdent(l)
			}
			return &ast.SelectorExpr{X: walk(x.X), Sel: x.Sel}
		case *ast.UnaryExpr:
			return &ast.UnaryExpr{Op: x.Op, X: walk(x.X)}
		case *ast.BinaryExpr:
			return &ast.BinaryExpr{X: walk(x.X), Op: x.Op, Y: walk(x.Y)}
		case *ast.ParenExpr:
			return &ast.ParenExpr{X: walk(x.X)}
		case *ast.CallExpr:
			args := make([]ast.Expr, len(x.Args))
			for i, a := range x.Args {
				args[i] = walk(a)
			}
			return &ast.CallExpr{Fun: x.Fun, Args: args}
		}
		return e
	}
	return walk(e)
}
