package geom

import (
	"fmt"
	"math"
	"strconv"
)

// argCounts gives how many numbers each SVG path command takes.
func argCount(c byte) (int, bool) {
	switch c | 0x20 { // lower case
	case 'z':
		return 0, true
	case 'h', 'v':
		return 1, true
	case 'm', 'l', 't':
		return 2, true
	case 's', 'q':
		return 4, true
	case 'c':
		return 6, true
	case 'a':
		return 7, true
	}
	return 0, false
}

// ParseSVGPath reads SVG path data (the d attribute of a <path>): every
// command, absolute and relative, with H and V lines, S and T smooth
// curves continuing the previous curve, and A elliptical arcs, which are
// turned into cubic Béziers. Numbers after a command repeat it (after M,
// as L). A path that starts with another command than M starts at the
// origin. Data that breaks the grammar is an error naming the position.
func ParseSVGPath(d string) (*Path, error) {
	p := &Path{}
	var f [7]float64
	var cur, ctrl Point // current point; last control point of a curve
	var prev byte       // previous command, lower case
	var cmd byte
	i := skipSpace(d, 0)
	for i < len(d) {
		c := d[i]
		if _, ok := argCount(c); ok {
			cmd = c
			i = skipSpace(d, i+1)
		} else if cmd == 0 || cmd|0x20 == 'z' || !startsNumber(c) {
			return nil, fmt.Errorf("unexpected %q at position %d of the path data", c, i+1)
		}
		// cmd repeats with the numbers that follow.
		n, _ := argCount(cmd)
		for j := 0; j < n; j++ {
			if cmd|0x20 == 'a' && (j == 3 || j == 4) {
				if i >= len(d) || (d[i] != '0' && d[i] != '1') {
					return nil, fmt.Errorf("arc flags must be 0 or 1 at position %d of the path data", i+1)
				}
				f[j] = float64(d[i] - '0')
				i = skipSpace(d, i+1)
				continue
			}
			v, next, err := scanNumber(d, i)
			if err != nil {
				return nil, fmt.Errorf("command %c needs %d numbers: %v", cmd, n, err)
			}
			f[j] = v
			i = skipSpace(d, next)
		}
		rel := cmd >= 'a'
		at := func(x, y float64) Point {
			if rel {
				return Point{cur.X + x, cur.Y + y}
			}
			return Point{x, y}
		}
		lc := cmd | 0x20
		switch lc {
		case 'm':
			cur = at(f[0], f[1])
			p.MoveTo(cur.X, cur.Y)
			// Numbers that follow are lines.
			if rel {
				cmd = 'l'
			} else {
				cmd = 'L'
			}
		case 'z':
			p.Close()
			cur = p.start
		case 'l':
			cur = at(f[0], f[1])
			p.LineTo(cur.X, cur.Y)
		case 'h':
			if rel {
				cur.X += f[0]
			} else {
				cur.X = f[0]
			}
			p.LineTo(cur.X, cur.Y)
		case 'v':
			if rel {
				cur.Y += f[0]
			} else {
				cur.Y = f[0]
			}
			p.LineTo(cur.X, cur.Y)
		case 'c', 's':
			c1 := cur
			k := 0
			if lc == 'c' {
				c1 = at(f[0], f[1])
				k = 2
			} else if prev == 'c' || prev == 's' {
				c1 = cur.Mul(2).Sub(ctrl)
			}
			c2, end := at(f[k], f[k+1]), at(f[k+2], f[k+3])
			p.CubeTo(c1.X, c1.Y, c2.X, c2.Y, end.X, end.Y)
			ctrl, cur = c2, end
		case 'q', 't':
			c1 := cur
			k := 0
			if lc == 'q' {
				c1 = at(f[0], f[1])
				k = 2
			} else if prev == 'q' || prev == 't' {
				c1 = cur.Mul(2).Sub(ctrl)
			}
			end := at(f[k], f[k+1])
			p.QuadTo(c1.X, c1.Y, end.X, end.Y)
			ctrl, cur = c1, end
		case 'a':
			end := at(f[5], f[6])
			p.ArcTo(f[0], f[1], f[2], f[3] == 1, f[4] == 1, end.X, end.Y)
			cur = end
		}
		prev = lc
	}
	return p, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// skipSpace skips white space and at most one comma.
func skipSpace(d string, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	if i < len(d) && d[i] == ',' {
		i++
		for i < len(d) && isSpace(d[i]) {
			i++
		}
	}
	return i
}

func startsNumber(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+'
}

// scanNumber reads the number at d[i:] by the SVG grammar: a sign, digits
// with at most one decimal point, and an exponent. It returns the number
// and the index after it.
func scanNumber(d string, i int) (float64, int, error) {
	start := i
	if i < len(d) && (d[i] == '+' || d[i] == '-') {
		i++
	}
	digits := 0
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
		digits++
	}
	if i < len(d) && d[i] == '.' {
		i++
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		if start >= len(d) {
			return 0, i, fmt.Errorf("the path data ends early")
		}
		return 0, i, fmt.Errorf("no number at position %d", start+1)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		j := i + 1
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		if j < len(d) && d[j] >= '0' && d[j] <= '9' {
			for j < len(d) && d[j] >= '0' && d[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(d[start:i], 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, i, fmt.Errorf("number %q at position %d is out of range", d[start:i], start+1)
	}
	return v, i, nil
}
