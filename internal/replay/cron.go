package replay

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// start is the week schedules are played in: Monday 2024-01-01 00:00 UTC.
var start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Firings lists the seconds from start, below horizon, at which a five-field schedule fires,
// minute by minute, as cron(8) reads it: numbers, "*", ranges, steps and lists (no names);
// day of month and day of week are or-ed when both are restricted.
func Firings(schedule string, horizon int) ([]int, error) {
	fields := strings.Fields(schedule)
	if len(fields) != 5 {
		return nil, fmt.Errorf("want 5 fields, got %d", len(fields))
	}
	bounds := [5][2]int{{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 7}}
	var sets [5]map[int]bool
	for i, f := range fields {
		s, err := field(f, bounds[i][0], bounds[i][1])
		if err != nil {
			return nil, fmt.Errorf("field %d %q: %v", i+1, f, err)
		}
		sets[i] = s
	}
	if sets[4][7] {
		sets[4][0] = true
	}
	domAny, dowAny := fields[2] == "*" || strings.HasPrefix(fields[2], "*/"), fields[4] == "*" || strings.HasPrefix(fields[4], "*/")
	var out []int
	for t := 0; t < horizon; t += 60 {
		at := start.Add(time.Duration(t) * time.Second)
		if !sets[0][at.Minute()] || !sets[1][at.Hour()] || !sets[3][int(at.Month())] {
			continue
		}
		dom, dow := sets[2][at.Day()], sets[4][int(at.Weekday())]
		day := dom && dow
		if !domAny && !dowAny {
			day = dom || dow
		}
		if day {
			out = append(out, t)
		}
	}
	return out, nil
}

func field(f string, lo, hi int) (map[int]bool, error) {
	set := map[int]bool{}
	for _, part := range strings.Split(f, ",") {
		rng, stepText, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("bad step %q", stepText)
			}
			step = n
		}
		from, to := lo, hi
		switch {
		case rng == "*":
		case strings.Contains(rng, "-"):
			a, b, _ := strings.Cut(rng, "-")
			x, err1 := strconv.Atoi(a)
			y, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil || x > y {
				return nil, fmt.Errorf("bad range %q", rng)
			}
			from, to = x, y
		default:
			x, err := strconv.Atoi(rng)
			if err != nil {
				return nil, fmt.Errorf("bad value %q", rng)
			}
			from, to = x, x
			if hasStep {
				to = hi
			}
		}
		if from < lo || to > hi {
			return nil, fmt.Errorf("%q out of %d-%d", rng, lo, hi)
		}
		for v := from; v <= to; v += step {
			set[v] = true
		}
	}
	return set, nil
}
