package findings

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// A finding's Details are the JSON form the policies return and every report writes (a map,
// whose keys encoding/json writes sorted). What Go reads of them it reads through the types of
// this file, decoded from that form, never by key: a key renamed in Rego fails
// TestTypedDetailsFollowTheirMetadata (pkg/cli), which checks every field below against the
// rule's METADATA (custom.details), not a reporter at run time.

// ExceedDetails are what Go reads of an ENI001's details: the binding row and its figures, its
// contributors (and, until the witness search has read them, the unlisted ones), the TTL
// checks ENI002 reports against, and the fixes.
type ExceedDetails struct {
	NodeGroup            string              `json:"nodeGroup"`
	NodeGroupLocation    *inventory.Position `json:"nodeGroupLocation"`
	InstanceType         string              `json:"instanceType"`
	BranchInterfaces     int                 `json:"branchInterfaces"`
	Demand               int                 `json:"demand"`
	OtherContributors    int                 `json:"otherContributors"`
	Contributors         []Contributor       `json:"contributors"`
	UnlistedContributors []Contributor       `json:"unlistedContributors"`
	TTLChecks            []TTLCheckDetail    `json:"ttlChecks"`
	Fixes                []FixDetail         `json:"fixes"`
}

// TTLCheckDetail is what ENI002's TTL leaves of an ENI001 row, for one listed contributor.
type TTLCheckDetail struct {
	Workload    string `json:"workload"`
	TTL         int    `json:"ttl"`
	DemandAfter int    `json:"demandAfter"`
	AtLeast     bool   `json:"atLeast"`
	Remedy      string `json:"remedy"`
}

// FixDetail is one remedy a finding offers (ENI001, ENI002, ENI003): the change as a person
// reads it, its levers, and the fields it sets in the workload's manifest.
type FixDetail struct {
	Change       string           `json:"change"`
	Lever        string           `json:"lever"`
	Levers       []string         `json:"levers"`
	Workload     string           `json:"workload"`
	InstanceType string           `json:"instanceType"`
	Set          []FixFieldDetail `json:"set"`
}

// FixFieldDetail is one field a fix sets: a number (Value), or a word eni-lint shows and does
// not write (Text).
type FixFieldDetail struct {
	Field string `json:"field"`
	Value *int   `json:"value"`
	Text  string `json:"text"`
}

// SubjectDetails are the keys the reporters read of any rule's details: what a finding is
// about (a node group and an instance type, for the fingerprints and the baseline) and the
// figure a summary shows. A nil field is a key the details do not have.
type SubjectDetails struct {
	NodeGroup         *string             `json:"nodeGroup"`
	NodeGroupLocation *inventory.Position `json:"nodeGroupLocation"`
	InstanceType      *string             `json:"instanceType"`
	Variant           string              `json:"variant"`
	BranchInterfaces  *int                `json:"branchInterfaces"`
	Demand            *int                `json:"demand"`
	Retained          *int                `json:"retained"`
	T                 *int                `json:"T"`
	MaxDemand         *int                `json:"maxDemand"`
	AtLeast           bool                `json:"atLeast"`
}

// fixesDetails is the one key every rule with remedies shares; each entry is decoded on its
// own, so that one that is not an object is skipped rather than spoiling the others.
type fixesDetails struct {
	Fixes []json.RawMessage `json:"fixes"`
}

// decodeDetails decodes the keys of a finding's details that v names into v. Details that do
// not have the shape v says (a custom policy's, or a key of another type) decode as far as
// they match: the field that does not match keeps its zero value, and ok is false. Only the
// keys v names are encoded again: a summary's figure does not pay for ENI001's contributors.
func (f Finding) decodeDetails(v any, keys []string) bool {
	if len(f.Details) == 0 {
		return false
	}
	part := make(map[string]any, len(keys))
	for _, k := range keys {
		if x, ok := f.Details[k]; ok {
			part[k] = x
		}
	}
	raw, err := json.Marshal(part)
	if err != nil {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// jsonKeys are the keys a details type decodes, from its fields' tags.
func jsonKeys(v any) []string {
	t := reflect.TypeOf(v)
	keys := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, key)
	}
	return keys
}

var (
	exceedKeys  = jsonKeys(ExceedDetails{})
	subjectKeys = jsonKeys(SubjectDetails{})
	fixesKeys   = jsonKeys(fixesDetails{})
)

// Exceed is an ENI001's details; ok is false for another rule's finding.
func (f Finding) Exceed() (d ExceedDetails, ok bool) {
	if f.Rule != "ENI001" {
		return d, false
	}
	return d, f.decodeDetails(&d, exceedKeys)
}

// Subject is what any finding's details say it is about, and its figure.
func (f Finding) Subject() SubjectDetails {
	var d SubjectDetails
	f.decodeDetails(&d, subjectKeys)
	return d
}

// FixDetails are the remedies a finding offers, in the order the rule ranks them.
func (f Finding) FixDetails() []FixDetail {
	if _, has := f.Details["fixes"]; !has {
		return nil
	}
	var d fixesDetails
	f.decodeDetails(&d, fixesKeys)
	var out []FixDetail
	for _, raw := range d.Fixes {
		if len(raw) == 0 || raw[0] != '{' {
			continue
		}
		var fx FixDetail
		_ = json.Unmarshal(raw, &fx) // a field of another type keeps its zero value
		out = append(out, fx)
	}
	return out
}
