package eni.rules.eni013_test

import data.eni.fixtures as fx
import data.eni.model
import data.eni.rules.eni013

dup(w, file, line) := object.union(w, {
	"id": sprintf("%s@%s:%d", [w.id, file, line]),
	"duplicates": [{"location": {"file": "base/cronjob.yaml", "line": 1, "column": 1}, "builtBy": "dev/kustomization.yaml"}, {"location": {"file": "b/cronjob.yaml", "line": 1, "column": 1}}],
})

# Two overlays of one CronJob: the row counts it once (41, not 82), and ENI013 says where.
test_fires_and_counts_once if {
	a := dup(fx.cronjob("seed", {}, {}), "a/cronjob.yaml", 1)
	b := dup(fx.cronjob("seed", {}, {"backoffLimit": 2}), "b/cronjob.yaml", 1)
	inv := fx.inventory([a, b], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows := model.rows with input as inv
	rows[0].demand == 41 # the worst definition (backoffLimit 6), once
	fs := eni013.finding with input as inv
	count(fs) == 1
	some f in fs
	f.details.counted == a.id
	contains(f.message, "base/cronjob.yaml:1 as built by dev/kustomization.yaml, b/cronjob.yaml:1")
}

test_quiet_without_duplicates if {
	count(eni013.finding) == 0 with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
}

# Three definitions, two of them tied on what they add: the first id of the tied largest is the
# one counted, the other two are outranked, whatever order they were read in.
test_ties_go_to_the_first_id if {
	small := dup(fx.cronjob("seed", {}, {"backoffLimit": 1}), "a/cronjob.yaml", 1)
	big_b := dup(fx.cronjob("seed", {}, {}), "c/cronjob.yaml", 1)
	big_a := dup(fx.cronjob("seed", {}, {}), "b/cronjob.yaml", 1)
	inv := fx.inventory([small, big_b, big_a], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	model.outranked == {small.id, big_b.id} with input as inv
	[w.id | some w in model._counted_workloads] == [big_a.id] with input as inv
}

# One NodePool name defined in two files of a cluster: one finding, on the first definition,
# naming both; each definition stays a node group.
pool_defs := [{"location": {"file": "pools/b.yaml", "line": 3, "column": 1}}, {"location": {"file": "pools/a.yaml", "line": 1, "column": 1}}]

pool(file, line, types) := object.union(fx.node_group("default", types), {
	"id": sprintf("NodeGroup/default@%s:%d", [file, line]),
	"location": {"file": file, "line": line, "column": 1},
	"duplicates": pool_defs,
})

test_node_pool_defined_twice_fires_once_on_the_first if {
	inv := fx.inventory([], [], [pool("pools/b.yaml", 3, ["c5.large"]), pool("pools/a.yaml", 1, ["m5.large"])])
	fs := eni013.finding with input as inv
	count(fs) == 1
	some f in fs
	f.location.file == "pools/a.yaml"
	f.details.nodeGroup == "default"
	contains(f.message, "defined 2 times in one cluster (pools/b.yaml:3, pools/a.yaml:1)")
}

# A SecurityGroupPolicy defined twice: one finding, on the first definition.
sgp_defs := [{"location": {"file": "a/sgp.yaml", "line": 1, "column": 1}}, {"location": {"file": "b/sgp.yaml", "line": 1, "column": 1}}]

test_policy_defined_twice_fires_once if {
	a := object.union(fx.sgp_all, {"id": "SecurityGroupPolicy/default/all@a/sgp.yaml:1", "duplicates": sgp_defs, "firstDefinition": true})
	b := object.union(fx.sgp_all, {"id": "SecurityGroupPolicy/default/all@b/sgp.yaml:1", "duplicates": sgp_defs})
	fs := eni013.finding with input as fx.inventory([fx.cronjob("seed", {}, {})], [a, b], [fx.node_group("default", ["m5.large"])])
	count(fs) == 1
	some f in fs
	f.object.id == a.id
	contains(f.message, "is defined 2 times (a/sgp.yaml:1, b/sgp.yaml:1)")
}
