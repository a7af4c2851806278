package inventory

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

// nextFirings is the reference: robfig/cron's Next, one firing at a time, as the CronJob
// controller calls it.
func nextFirings(sched cron.Schedule, loc *time.Location, after, end time.Time, throughEnd bool, limit int) []int64 {
	var out []int64
	for t := sched.Next(after.In(loc)); !t.IsZero() && len(out) < limit; t = sched.Next(t) {
		if t.After(end) || !throughEnd && !t.Before(end) {
			break
		}
		out = append(out, t.Unix())
	}
	return out
}

// randomField writes one cron field over [lo, hi]: "*", a value, a range, a step or a list.
func randomField(rng *rand.Rand, lo, hi int) string {
	v := func() int { return lo + rng.IntN(hi-lo+1) }
	switch rng.IntN(6) {
	case 0:
		return "*"
	case 1:
		return fmt.Sprint(v())
	case 2:
		a, b := v(), v()
		return fmt.Sprintf("%d-%d", min(a, b), max(a, b))
	case 3:
		return fmt.Sprintf("*/%d", 1+rng.IntN(hi-lo+1))
	case 4:
		a := v()
		return fmt.Sprintf("%d-%d/%d", a, max(a, v()), 1+rng.IntN(5))
	}
	return fmt.Sprintf("%d,%d,%d", v(), v(), v())
}

// TestFiringsAgreeWithNext: the day-by-day listing of a schedule read in UTC gives exactly the
// firings robfig/cron's Next gives, for random schedules (every field form, day-of-month and
// day-of-week together), descriptors, windows that start and end on a firing, and limits.
func TestFiringsAgreeWithNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	schedules := []string{"@daily", "@hourly", "@weekly", "@monthly", "@yearly", "0 0 29 2 *", "0 0 31 * 1", "*/1 * * * *"}
	for range 400 {
		schedules = append(schedules, fmt.Sprintf("%s %s %s %s %s", randomField(rng, 0, 59), randomField(rng, 0, 23),
			randomField(rng, 1, 31), randomField(rng, 1, 12), randomField(rng, 0, 6)))
	}
	checked := 0
	for _, s := range schedules {
		for _, prefix := range []string{"", "CRON_TZ=UTC "} {
			sched, err := parseSchedule(prefix + s)
			if err != nil {
				continue
			}
			checked++
			for k := range 4 {
				after := gapScanStart.Add(time.Duration(rng.IntN(400*86400)) * time.Second)
				if k == 0 {
					after = gapScanStart.Add(-time.Second) // a firing at the start is listed
				}
				end := after.Add(time.Duration(1+rng.IntN(3*365*86400)) * time.Second)
				if first := sched.Next(after); k == 1 && !first.IsZero() {
					end = first // a window that ends on a firing
				}
				limit := []int{1, 7, 500, 3001}[rng.IntN(4)]
				throughEnd := rng.IntN(2) == 0
				got := firings(sched, time.UTC, after, end, throughEnd, limit)
				want := nextFirings(sched, time.UTC, after, end, throughEnd, limit)
				if !slices.Equal(got, want) {
					t.Fatalf("%q after %v to %v (through %v, limit %d): listed %d firings, Next gives %d (first %v / %v)",
						prefix+s, after, end, throughEnd, limit, len(got), len(want), head(got), head(want))
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d schedules parsed: the generator does not exercise the listing", checked)
	}
}

func head(ts []int64) []int64 { return ts[:min(3, len(ts))] }

func TestEvenGaps(t *testing.T) {
	for _, c := range []struct {
		schedule, zone string
		want           bool
	}{
		{"* * * * *", "", true},
		{"*/5 * * * *", "", true},
		{"*/5 * * * *", "UTC", true},
		{"0 */6 * * *", "", true},
		{"30 2 * * *", "", true},
		{"@hourly", "", true},
		{"@daily", "", true},
		{"0 3 * * 1", "", true},       // weekly: every gap a week
		{"*/7 * * * *", "", false},    // 56 → 0 is 4 minutes
		{"0 */5 * * *", "", false},    // 20:00 → 00:00 is 4 hours
		{"*/5 9-17 * * *", "", false}, // the night is a longer gap
		{"0 3 * * 1,3", "", false},    // 2 days, then 5
		{"0 0 1 * *", "", false},      // months differ
		{"0 0 * 1-6 *", "", false},    // months
		{"*/5 * * * *", "Europe/Berlin", false},
		{"CRON_TZ=UTC */5 * * * *", "", false},
		{"not a schedule", "", false},
	} {
		if got := EvenGaps(c.schedule, c.zone); got != c.want {
			t.Errorf("EvenGaps(%q, %q) = %v, want %v", c.schedule, c.zone, got, c.want)
		}
	}
}

// TestEvenGapsHoldAnywhere: a schedule EvenGaps accepts has no gap longer than its shortest
// one in two weeks of firings from anywhere in a week, by robfig's Next (these schedules, every
// day of every month in UTC, repeat weekly); one it refuses has one.
func TestEvenGapsHoldAnywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	even := 0
	for range 200 {
		schedule := fmt.Sprintf("%s %s * * %s", randomField(rng, 0, 59), randomField(rng, 0, 23), randomField(rng, 0, 6))
		if rng.IntN(2) == 0 { // near the even ones
			pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
			schedule = fmt.Sprintf("%s %s * * %s", pick("*", "*/5", "*/15", "*/7", "7", "0,30", "0,20"), pick("*", "*/2", "*/6", "*/5", "3", "3,15"), pick("*", "*", "1", "1,4"))
		}
		gap, err := ShortestGap(schedule, "")
		if err != nil {
			continue
		}
		sched, err := parseSchedule(schedule)
		if err != nil {
			t.Fatal(err)
		}
		from := gapScanStart.Add(time.Duration(rng.IntN(weekSeconds)) * time.Second)
		times := nextFirings(sched, time.UTC, from, from.Add(15*24*time.Hour), false, 15*24*60+1)
		longest := int64(0)
		for i := 1; i < len(times); i++ {
			longest = max(longest, times[i]-times[i-1])
		}
		if EvenGaps(schedule, "") {
			even++
			if longest != int64(gap) {
				t.Errorf("%q: even gaps of %d s, but a gap of %d s", schedule, gap, longest)
			}
		} else if len(times) > 1 && longest == int64(gap) {
			t.Errorf("%q: every gap is %d s, but EvenGaps refuses it", schedule, gap)
		}
	}
	if even < 10 {
		t.Errorf("only %d of the random schedules have even gaps", even)
	}
}
