package snapshot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// Limits bound what one snapshot may cost.
type Limits struct {
	// MaxItems is the most items (nodes, pods, …) read from all inputs together.
	MaxItems int
	// MaxItemBytes is the largest one item may be in JSON.
	MaxItemBytes int64
	// MaxYAMLBytes is the largest YAML input: YAML is not streamed, so it is read whole.
	MaxYAMLBytes int64
}

// DefaultLimits fit a cluster of 10,000 nodes and 2 million pods, and pods of real size.
var DefaultLimits = Limits{MaxItems: 2_500_000, MaxItemBytes: 4 << 20, MaxYAMLBytes: 256 << 20}

// New returns an empty snapshot to Read into.
func New() *Snapshot {
	return &Snapshot{Jobs: map[string]Job{}, CronJobs: map[string]CronJob{}, Events: map[string][]Event{}, Items: map[string]int{}}
}

// errTooManyItems stops a snapshot over Limits.MaxItems.
var errTooManyItems = errors.New("too many items")

// Read adds one kubectl output to the snapshot. name is how errors name it. A JSON input is
// streamed; YAML is read whole within MaxYAMLBytes. An input that is not valid becomes a
// located error and Read goes on with the next one. Items and errors are located by line.
func (s *Snapshot) Read(name string, r io.Reader, lim Limits) {
	br := bufio.NewReaderSize(r, 64<<10)
	first, skipped, err := firstByte(br)
	if err == io.EOF {
		s.fail(name, 0, "empty: not a kubectl output")
		return
	}
	if err != nil {
		s.fail(name, skipped+1, "not read: "+err.Error())
		return
	}
	if first == '{' || first == '[' {
		s.readJSON(name, br, lim, nil, skipped)
		return
	}
	s.readYAML(name, br, lim)
}

// firstByte skips white space and a byte order mark, and says how many lines it skipped.
func firstByte(br *bufio.Reader) (byte, int, error) {
	lines := 0
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, lines, err
		}
		switch b {
		case '\n':
			lines++
			continue
		case ' ', '\t', '\r':
			continue
		case 0xEF: // a UTF-8 byte order mark
			if next, _ := br.Peek(2); bytes.Equal(next, []byte{0xBB, 0xBF}) {
				br.Discard(2)
				continue
			}
		}
		return b, lines, br.UnreadByte()
	}
}

func (s *Snapshot) fail(name string, line int, msg string) {
	s.Errors = append(s.Errors, inventory.LoadError{Position: inventory.Position{File: name, Line: line}, Message: msg})
}

// budgetReader counts what the JSON decoder reads, and refuses to go on when one item has
// taken more than its budget (the decoder buffers a whole item; this bounds that buffer). It
// also counts lines, so that each item is located without reading the input again: it keeps
// the bytes read past the last offset asked for (at most an item and the read-ahead).
type budgetReader struct {
	r          io.Reader
	read       int64
	itemStart  int64
	itemLimit  int64
	countLines bool
	pending    []byte // bytes from offset scanned to read
	scanned    int64
	lines      int // newlines before scanned
}

// lineAt is the 1-based line of offset; offsets must not go backwards.
func (b *budgetReader) lineAt(offset int64) int {
	if n := offset - b.scanned; n > 0 && n <= int64(len(b.pending)) {
		b.lines += bytes.Count(b.pending[:n], []byte{'\n'})
		b.pending = append(b.pending[:0], b.pending[n:]...)
		b.scanned = offset
	}
	line := b.lines + 1
	// The decoder's offset is just after the previous token: the item itself starts after the
	// white space (and comma) that follow.
	for _, c := range b.pending {
		if c == '\n' {
			line++
		} else if c != ' ' && c != '\t' && c != '\r' && c != ',' {
			break
		}
	}
	return line
}

var errItemTooLarge = errors.New("item too large")

func (b *budgetReader) Read(p []byte) (int, error) {
	// The decoder reads ahead of the item it is on, by at most its buffer; 1 MiB of slack
	// keeps a normal read-ahead from tripping the budget.
	if b.itemLimit > 0 {
		allow := b.itemStart + b.itemLimit + 1<<20 - b.read
		if allow <= 0 {
			return 0, errItemTooLarge
		}
		if int64(len(p)) > allow {
			p = p[:allow] // one read may not carry the decoder past the budget
		}
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	if b.countLines {
		b.pending = append(b.pending, p[:n]...)
	}
	return n, err
}

func (s *Snapshot) readJSON(name string, r io.Reader, lim Limits, lineOf func(int64) int, skippedLines int) {
	br := &budgetReader{r: r, itemLimit: lim.MaxItemBytes, countLines: lineOf == nil, lines: skippedLines}
	j := &jsonInput{s: s, name: name, lim: lim, br: br, dec: json.NewDecoder(br), lineOf: lineOf}
	j.dec.UseNumber()
	tok, err := j.dec.Token()
	if err != nil {
		j.syntax(err)
		return
	}
	if d, ok := tok.(json.Delim); ok && d == '[' {
		for j.dec.More() {
			if !j.item() {
				return
			}
		}
		return
	}
	j.object()
}

// jsonInput is one JSON snapshot being read: its decoder over the budgeted reader.
type jsonInput struct {
	s      *Snapshot
	name   string
	lim    Limits
	br     *budgetReader
	dec    *json.Decoder
	lineOf func(int64) int
}

// locate is the line of an offset: from the reader as it goes, unless the caller knows them
// (a YAML document).
func (j *jsonInput) locate(offset int64) int {
	if j.lineOf != nil {
		return j.lineOf(offset)
	}
	return j.br.lineAt(offset)
}

// syntax reports why reading stopped where it did.
func (j *jsonInput) syntax(err error) {
	s, name, lim := j.s, j.name, j.lim
	off := j.dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	switch {
	case errors.Is(err, errItemTooLarge):
		s.fail(name, j.locate(j.br.itemStart), fmt.Sprintf("an item larger than %d bytes: not read further", lim.MaxItemBytes))
	case errors.Is(err, errTooManyItems):
		s.fail(name, j.locate(off), fmt.Sprintf("more than %d items in the snapshot: not read further", lim.MaxItems))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		s.fail(name, j.locate(off), "the JSON ends early (a truncated snapshot?)")
	case se != nil:
		s.fail(name, j.locate(off), "not valid JSON: "+err.Error())
	default: // the input itself failed: a budget of the caller, a read error
		s.fail(name, j.locate(off), "not read further: "+err.Error())
	}
}

// item reads one item of a list; false when reading cannot go on.
func (j *jsonInput) item() bool {
	s := j.s
	if s.total() >= j.lim.MaxItems {
		j.syntax(errTooManyItems)
		return false
	}
	j.br.itemStart = j.dec.InputOffset()
	var it rawItem
	if err := j.dec.Decode(&it); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			s.fail(j.name, j.locate(j.br.itemStart), fmt.Sprintf("%s %s: %s must be %s, found %s", orUnknown(it.Kind), it.Metadata.Name, te.Field, te.Type, te.Value))
			return true // the decoder consumed the item; the next one can be read
		}
		j.syntax(err)
		return false
	}
	s.add(it, inventory.Position{File: j.name, Line: j.locate(j.br.itemStart)})
	return true
}

// object reads an object: a List with items, or one resource (kubectl get pod NAME -o json).
func (j *jsonInput) object() {
	dec := j.dec
	fields := map[string]json.RawMessage{}
	sawItems := false
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			j.syntax(err)
			return
		}
		key, _ := keyTok.(string)
		if key == "items" {
			sawItems = true
			if !j.items() {
				return
			}
			continue
		}
		j.br.itemStart = dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			j.syntax(err)
			return
		}
		fields[key] = v
	}
	if _, err := dec.Token(); err != nil {
		j.syntax(err)
		return
	}
	if !sawItems {
		raw, _ := json.Marshal(fields)
		var it rawItem
		if err := json.Unmarshal(raw, &it); err != nil {
			j.s.fail(j.name, j.locate(0), "not a Kubernetes object: "+err.Error())
			return
		}
		j.s.add(it, inventory.Position{File: j.name, Line: j.locate(0)})
	}
}

// items reads a List's items (null is none); false when reading cannot go on.
func (j *jsonInput) items() bool {
	dec := j.dec
	open, err := dec.Token()
	if err != nil {
		j.syntax(err)
		return false
	}
	if open == nil {
		return true // items: null
	}
	if d, ok := open.(json.Delim); !ok || d != '[' {
		j.s.fail(j.name, j.locate(dec.InputOffset()), "items must be a list")
		return false
	}
	for dec.More() {
		if !j.item() {
			return false
		}
	}
	if _, err := dec.Token(); err != nil {
		j.syntax(err)
		return false
	}
	return true
}

// total is how many items all inputs held so far (the MaxItems budget counts them).
func (s *Snapshot) total() int { return s.read }

func orUnknown(kind string) string {
	if kind == "" {
		return "item"
	}
	return kind
}

// readYAML reads `kubectl get … -o yaml` output: a List (or several documents) in YAML. It is
// parsed whole, with the YAML budgets of the manifests, then read item by item like JSON.
func (s *Snapshot) readYAML(name string, r io.Reader, lim Limits) {
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxYAMLBytes+1))
	if err != nil {
		s.fail(name, 0, err.Error())
		return
	}
	if int64(len(data)) > lim.MaxYAMLBytes {
		s.fail(name, 0, fmt.Sprintf("a YAML snapshot over %d bytes: use -o json, which is read as a stream", lim.MaxYAMLBytes))
		return
	}
	docs, err := yamlpos.DocumentsWithin(data, yamlpos.DefaultLimits)
	if err != nil {
		for _, se := range yamlpos.Errors(err) {
			s.fail(name, se.Line, se.Message)
		}
		return
	}
	for _, doc := range docs {
		var v any
		if err := doc.Decode(&v); err != nil {
			s.fail(name, doc.Line, "not a Kubernetes object: "+err.Error())
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			s.fail(name, doc.Line, "not a Kubernetes object: "+err.Error())
			continue
		}
		line := doc.Line // items of a YAML document are located at the document
		s.readJSON(name, bytes.NewReader(raw), lim, func(int64) int { return line }, 0)
	}
}

// rawItem is the union of the fields an audit reads from nodes, pods, Jobs, CronJobs and
// events; everything else in an item is skipped by the decoder.
type rawItem struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name              string            `json:"name"`
		Namespace         string            `json:"namespace"`
		Labels            map[string]string `json:"labels"`
		Annotations       map[string]string `json:"annotations"`
		OwnerReferences   []ownerReference  `json:"ownerReferences"`
		CreationTimestamp string            `json:"creationTimestamp"`
		DeletionTimestamp string            `json:"deletionTimestamp"`
	} `json:"metadata"`
	Spec struct {
		NodeName                   string      `json:"nodeName"`
		Containers                 []container `json:"containers"`
		InitContainers             []container `json:"initContainers"`
		Taints                     []taint     `json:"taints"`
		TTLSecondsAfterFinished    *int        `json:"ttlSecondsAfterFinished"`
		SuccessfulJobsHistoryLimit *int        `json:"successfulJobsHistoryLimit"`
		FailedJobsHistoryLimit     *int        `json:"failedJobsHistoryLimit"`
		JobTemplate                struct {
			Spec struct {
				TTLSecondsAfterFinished *int `json:"ttlSecondsAfterFinished"`
			} `json:"spec"`
		} `json:"jobTemplate"`
	} `json:"spec"`
	Status struct {
		Phase                 string              `json:"phase"`
		Capacity              map[string]quantity `json:"capacity"`
		Conditions            []condition         `json:"conditions"`
		ContainerStatuses     []containerStatus   `json:"containerStatuses"`
		InitContainerStatuses []containerStatus   `json:"initContainerStatuses"`
	} `json:"status"`
	// Event fields.
	InvolvedObject struct {
		Kind      string `json:"kind"`
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"involvedObject"`
	Reason        string `json:"reason"`
	Message       string `json:"message"`
	Count         int    `json:"count"`
	LastTimestamp string `json:"lastTimestamp"`
	EventTime     string `json:"eventTime"`
}

type ownerReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Controller *bool  `json:"controller"`
}

type container struct {
	Resources struct {
		Requests map[string]quantity `json:"requests"`
		Limits   map[string]quantity `json:"limits"`
	} `json:"resources"`
}

type taint struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Effect string `json:"effect"`
}

type condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	LastTransitionTime string `json:"lastTransitionTime"`
}

type containerStatus struct {
	State struct {
		Waiting *struct {
			Reason string `json:"reason"`
		} `json:"waiting"`
		Terminated *struct {
			FinishedAt string `json:"finishedAt"`
		} `json:"terminated"`
	} `json:"state"`
}

// quantity is a Kubernetes quantity as kubectl prints it ("9") or as a number (9). Only whole
// counts matter for pod-eni; anything else reads as -1 (present, amount unknown).
type quantity int

func (q *quantity) UnmarshalJSON(b []byte) error {
	text := strings.Trim(string(b), `"`)
	n, err := strconv.Atoi(text)
	if err != nil {
		*q = -1
		return nil
	}
	*q = quantity(n)
	return nil
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func (s *Snapshot) seen(t time.Time) {
	if t.After(s.Latest) {
		s.Latest = t
	}
}

// ipAssignment tells the events that say a pod got no IP address, which for an SGP pod means
// no branch ENI ("failed to assign an IP address to container").
func ipAssignment(message string) bool {
	m := strings.ToLower(message)
	return strings.Contains(m, "failed to assign an ip address") || strings.Contains(m, "pod-eni") && strings.Contains(m, "insufficient")
}

func (s *Snapshot) add(it rawItem, at inventory.Position) {
	s.Items[it.Kind]++
	s.read++
	s.seen(parseTime(it.Metadata.CreationTimestamp))
	md := it.Metadata
	switch it.Kind {
	case "Node":
		s.Nodes = append(s.Nodes, nodeOf(it, at))
	case "Pod":
		s.addPod(it, at)
	case "Job":
		s.Jobs[Key(md.Namespace, md.Name)] = Job{Namespace: md.Namespace, Name: md.Name, TTL: it.Spec.TTLSecondsAfterFinished, Owner: controllerOf(md.OwnerReferences)}
	case "CronJob":
		s.CronJobs[Key(md.Namespace, md.Name)] = CronJob{
			Namespace: md.Namespace, Name: md.Name, At: at,
			SuccessfulHistoryLimit: it.Spec.SuccessfulJobsHistoryLimit, FailedHistoryLimit: it.Spec.FailedJobsHistoryLimit,
			TTL: it.Spec.JobTemplate.Spec.TTLSecondsAfterFinished,
		}
	case "Event":
		last := parseTime(it.LastTimestamp)
		if last.IsZero() {
			last = parseTime(it.EventTime)
		}
		s.seen(last)
		if it.InvolvedObject.Kind == "Pod" && ipAssignment(it.Message) {
			key := Key(it.InvolvedObject.Namespace, it.InvolvedObject.Name)
			s.Events[key] = append(s.Events[key], Event{Reason: it.Reason, Message: it.Message, Count: it.Count, Last: last})
		}
	}
}

// nodeOf is a Node item: its instance type label (the beta one for old nodes), its pod-eni
// capacity and its taints.
func nodeOf(it rawItem, at inventory.Position) Node {
	md := it.Metadata
	n := Node{Name: md.Name, Labels: md.Labels, At: at}
	n.InstanceType = md.Labels["node.kubernetes.io/instance-type"]
	if n.InstanceType == "" {
		n.InstanceType = md.Labels["beta.kubernetes.io/instance-type"]
	}
	if q, ok := it.Status.Capacity[PodENIResource]; ok && q >= 0 {
		v := int(q)
		n.PodENI = &v
	}
	for _, t := range it.Spec.Taints {
		n.Taints = append(n.Taints, inventory.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	return n
}

// addPod keeps a pod that requests or holds a branch ENI (others are counted as skipped),
// with its owner and when it finished.
func (s *Snapshot) addPod(it rawItem, at inventory.Position) {
	md := it.Metadata
	p := Pod{Namespace: md.Namespace, Name: md.Name, NodeName: it.Spec.NodeName, Phase: it.Status.Phase, At: at, Deleting: md.DeletionTimestamp != ""}
	p.Requested = podENIRequests(it)
	if a := md.Annotations[PodENIAnnotation]; a != "" && a != "[]" && a != "null" {
		var enis []json.RawMessage
		if json.Unmarshal([]byte(a), &enis) == nil {
			p.ENIs = len(enis)
		} else {
			p.ENIs = 1 // present but not the controller's JSON list: one ENI, as for any SGP pod
		}
	}
	if p.Requested == 0 && p.ENIs == 0 {
		s.Skipped++
		return
	}
	p.Owner = controllerOf(md.OwnerReferences)
	for _, cs := range append(append([]containerStatus{}, it.Status.ContainerStatuses...), it.Status.InitContainerStatuses...) {
		if w := cs.State.Waiting; w != nil && w.Reason == "ContainerCreating" {
			p.ContainerCreating = true
		}
		if term := cs.State.Terminated; term != nil {
			if t := parseTime(term.FinishedAt); t.After(p.Finished) {
				p.Finished = t
			}
		}
	}
	for _, c := range it.Status.Conditions {
		t := parseTime(c.LastTransitionTime)
		s.seen(t)
		// A finished pod's Ready condition turns False (reason PodCompleted) when it ends.
		if p.Finished.IsZero() && p.Terminated() && c.Type == "Ready" && c.Status == "False" {
			p.Finished = t
		}
	}
	s.seen(p.Finished)
	s.Pods = append(s.Pods, p)
}

// podENIRequests is the pod-eni its containers and init containers request (or limit, when
// they request none): at least one for each that names the resource.
func podENIRequests(it rawItem) int {
	n := 0
	for _, c := range append(append([]container{}, it.Spec.Containers...), it.Spec.InitContainers...) {
		q, ok := c.Resources.Requests[PodENIResource]
		if !ok {
			q, ok = c.Resources.Limits[PodENIResource]
		}
		if ok {
			if q < 1 {
				q = 1
			}
			n += int(q)
		}
	}
	return n
}

// controllerOf is the owner reference marked controller, else the first.
func controllerOf(refs []ownerReference) OwnerRef {
	for _, r := range refs {
		if r.Controller != nil && *r.Controller {
			return OwnerRef{Kind: r.Kind, Name: r.Name}
		}
	}
	if len(refs) > 0 {
		return OwnerRef{Kind: refs[0].Kind, Name: refs[0].Name}
	}
	return OwnerRef{}
}
