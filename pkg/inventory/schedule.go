package inventory

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robfig/cron/v3"
)

// The CronJob controller parses schedules with robfig/cron's standard parser, so eni-lint uses
// the same library: a schedule it accepts is one the cluster accepts.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// How far ShortestGap looks: enough firings to cover a week of any schedule that fires at
// least every few minutes, and four years (a leap year and three others) for sparse ones.
const (
	gapScanFirings = 3000
	gapScanSpan    = 4 * 365 * 24 * time.Hour
)

// A fixed reference keeps results reproducible: Monday 2024-01-01 00:00 UTC.
var gapScanStart = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

var gapCache sync.Map // schedule+zone -> gapResult; many CronJobs share a schedule

// gapCached counts gapCache's entries: at most maxCachedSchedules are kept. A schedule's
// facts hold its times in the week (10,080 for every minute), and a pull request can write any
// number of spellings of one; past the bound a schedule is worked out again each time.
var gapCached atomic.Int64

const maxCachedSchedules = 4096

type gapResult struct {
	seconds int
	err     error
	// week and weekly are WeekTimes' answer for the same schedule and zone.
	week   []int
	weekly bool
	spans  []int
	// even is EvenGaps' answer.
	even bool
}

// ShortestGap returns the shortest time in seconds between two consecutive runs of a cron
// schedule. It walks the schedule's firings from a fixed date (up to four years, or a few thousand
// firings, stopping early at the one-minute floor). A schedule that fires once in four years
// is reported with its gap up to the scan's end, which is the right order of magnitude for the
// history arithmetic it feeds.
func ShortestGap(schedule, timeZone string) (int, error) {
	r := scheduleFacts(schedule, timeZone)
	return r.seconds, r.err
}

// scheduleFacts works out ShortestGap and WeekTimes once per schedule and zone.
func scheduleFacts(schedule, timeZone string) gapResult {
	key := timeZone + "\x00" + schedule
	if v, ok := gapCache.Load(key); ok {
		return v.(gapResult)
	}
	var r gapResult
	var times []int64
	times, r.err = scanFirings(schedule, timeZone)
	if r.err == nil {
		r.seconds = shortestGap(times)
		r.spans = runSpans(times)
	}
	r.week, r.weekly = weekTimes(schedule, timeZone)
	r.even = evenGaps(schedule, timeZone, r.seconds)
	if gapCached.Load() < maxCachedSchedules {
		if _, loaded := gapCache.LoadOrStore(key, r); !loaded {
			gapCached.Add(1)
		}
	}
	return r
}

// scanFirings reads a schedule and its zone as the CronJob controller does and lists its
// firings after the scan's start: up to four years, at most gapScanFirings + 1 of them.
func scanFirings(schedule, timeZone string) ([]int64, error) {
	if strings.TrimSpace(schedule) == "" {
		return nil, fmt.Errorf("schedule is empty")
	}
	if strings.HasPrefix(schedule, "TZ=") || strings.HasPrefix(schedule, "CRON_TZ=") {
		if timeZone != "" {
			return nil, fmt.Errorf("schedule sets a time zone and spec.timeZone is set too")
		}
	}
	loc := time.UTC
	if timeZone != "" {
		l, err := time.LoadLocation(timeZone)
		if err != nil {
			return nil, fmt.Errorf("unknown time zone %q", timeZone)
		}
		loc = l
	}
	sched, err := parseSchedule(schedule)
	if err != nil {
		return nil, err
	}
	start := gapScanStart.In(loc)
	times := firings(sched, loc, start, start.Add(gapScanSpan), true, gapScanFirings+1)
	if len(times) == 0 {
		return nil, fmt.Errorf("schedule %q never fires", schedule)
	}
	return times, nil
}

// shortestGap is the shortest time between two consecutive firings; a schedule that fires
// once in the scan has the whole span as its gap.
func shortestGap(times []int64) int {
	best := int64(0)
	for i := 1; i < len(times); i++ {
		if gap := times[i] - times[i-1]; best == 0 || gap < best {
			best = gap
		}
	}
	if best == 0 {
		return int(gapScanSpan / time.Second)
	}
	return int(best)
}

// parseSchedule guards robfig/cron v3.0.1, which panics on some malformed time-zone prefixes
// ("TZ=" with nothing after it, found by FuzzShortestGap): a bad manifest must not crash the run.
func parseSchedule(schedule string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("schedule %q cannot be parsed", schedule)
		}
	}()
	sched, err = cronParser.Parse(schedule)
	if err != nil {
		return nil, fmt.Errorf("schedule %q: %v", schedule, err)
	}
	return sched, nil
}

// weekSeconds is the length of the week the schedules of WeekTimes repeat in.
const weekSeconds = 7 * 24 * 3600

// maxWeekTimes bounds the firings WeekTimes lists: schedules that fire more often than hourly
// gain nothing from being told apart, and the rows compare every pair of firings.
const maxWeekTimes = 168

// WeekTimes returns when a schedule fires within a week, in seconds since Monday 00:00 UTC,
// when it repeats every week in UTC: every day of the month and every month ("*" in both
// fields, as in @daily and @weekly), and no time zone but UTC. The CronJob controller then
// starts a run at each of these times every week. ok is false for other schedules, and for
// those firing more than maxWeekTimes times a week.
func WeekTimes(schedule, timeZone string) (times []int, ok bool) {
	r := scheduleFacts(schedule, timeZone)
	// A copy: the cached slice is shared by every CronJob with this schedule.
	return slices.Clone(r.week), r.weekly
}

func weekTimes(schedule, timeZone string) (times []int, ok bool) {
	sched, ok := weeklyInUTC(schedule, timeZone)
	if !ok {
		return nil, false
	}
	start := gapScanStart
	all := firings(sched, time.UTC, start.Add(-time.Second), start.Add(weekSeconds*time.Second), false, maxWeekTimes+1)
	if len(all) > maxWeekTimes {
		return nil, false
	}
	for _, t := range all {
		times = append(times, int(t-start.Unix()))
	}
	return times, len(times) > 0
}

// weeklyInUTC parses a schedule that repeats every week in UTC: every day of the month and
// every month ("*" in both fields, as in @daily and @weekly), and no time zone but UTC.
func weeklyInUTC(schedule, timeZone string) (cron.Schedule, bool) {
	if timeZone != "" && timeZone != "UTC" && timeZone != "Etc/UTC" {
		return nil, false
	}
	if strings.HasPrefix(schedule, "TZ=") || strings.HasPrefix(schedule, "CRON_TZ=") {
		return nil, false
	}
	// Without a zone the controller reads the schedule in its own, UTC on EKS's control plane.
	sched, err := parseSchedule("CRON_TZ=UTC " + schedule)
	if err != nil {
		return nil, false
	}
	spec, isSpec := sched.(*cron.SpecSchedule)
	const star = 1 << 63 // robfig/cron marks a field written as "*"
	if !isSpec || spec.Dom&star == 0 || spec.Month&star == 0 {
		return nil, false
	}
	return sched, true
}

// EvenGaps reports whether every gap between two consecutive firings of a schedule, at any
// time, is its shortest gap: a UTC schedule for every day of every month ("*" in both fields)
// whose firings in a week, and from the week's last to the next week's first, are evenly
// spaced ("*/5 * * * *", "0 */6 * * *", "30 2 * * *", "0 3 * * 1"). Such a schedule repeats
// weekly, so a week of firings decides. The model then knows that the most recent firing before
// any moment is less than one gap before it, and the k-th before that less than k + 1 gaps
// (docs/model.md §5a); a scan of its firings would only say how short gaps can be.
func EvenGaps(schedule, timeZone string) bool {
	return scheduleFacts(schedule, timeZone).even
}

func evenGaps(schedule, timeZone string, gap int) bool {
	sched, ok := weeklyInUTC(schedule, timeZone)
	if !ok || gap <= 0 {
		return false
	}
	// At most one firing a minute: a week has at most 10,080.
	week := firings(sched, time.UTC, gapScanStart.Add(-time.Second), gapScanStart.Add(weekSeconds*time.Second), false, weekSeconds/60+1)
	if len(week) == 0 {
		return false
	}
	for i := 1; i < len(week); i++ {
		if week[i]-week[i-1] != int64(gap) {
			return false
		}
	}
	return week[0]+weekSeconds-week[len(week)-1] == int64(gap)
}

// ScheduleStart is the instant ScheduleTimes counts from: the fixed reference of the scans.
var ScheduleStart = gapScanStart

// ScheduleTimes returns when a schedule fires within span seconds of ScheduleStart (seconds
// since it), at most limit of them; nil when the schedule cannot be parsed. A witness plays a
// CronJob's runs at these times.
func ScheduleTimes(schedule, timeZone string, span, limit int) []int {
	if timeZone != "" && !strings.HasPrefix(schedule, "TZ=") && !strings.HasPrefix(schedule, "CRON_TZ=") {
		if _, err := time.LoadLocation(timeZone); err != nil {
			return nil
		}
		schedule = "CRON_TZ=" + timeZone + " " + schedule
	}
	sched, err := parseSchedule(schedule)
	if err != nil {
		return nil
	}
	end := gapScanStart.Add(time.Duration(span) * time.Second)
	var times []int
	for _, t := range firings(sched, time.UTC, gapScanStart.Add(-time.Second), end, false, limit) {
		times = append(times, int(t-gapScanStart.Unix()))
	}
	return times
}

// maxRunSpans is how many runs RunSpans looks at: enough for the windows the model asks about
// (a TTL or a deadline plus W); a longer window falls back to the shortest gap.
const maxRunSpans = 32

// RunSpans returns, for k = 1, 2, …, the shortest time between a firing of the schedule and
// the k-th after it (spans[k−1]), over the same scan as ShortestGap; nil when the schedule is
// regular (every gap the shortest one, so k times the gap is exact) or cannot be read. At most
// k + 1 runs start in a closed window shorter than spans[k]: the model counts the runs in a
// window from the schedule's real times (docs/model.md §5a) rather than from its shortest gap.
func RunSpans(schedule, timeZone string) []int {
	return slices.Clone(scheduleFacts(schedule, timeZone).spans)
}

func runSpans(times []int64) []int {
	if len(times) < 3 {
		return nil
	}
	spans := make([]int, 0, maxRunSpans)
	for k := 1; k <= maxRunSpans && k < len(times); k++ {
		best := int64(-1)
		for i := 0; i+k < len(times); i++ {
			if d := times[i+k] - times[i]; best < 0 || d < best {
				best = d
			}
		}
		spans = append(spans, int(best))
	}
	regular := true
	for k, s := range spans {
		regular = regular && s == (k+1)*spans[0]
	}
	if regular {
		return nil
	}
	return spans
}
