# METADATA
# title: A policy that tries to reach the network
# custom:
#   id: BAD001
#   severity: error
package eni.rules.bad001

finding contains f if {
	resp := http.send({"method": "GET", "url": "http://127.0.0.1:9/"})
	f := {"rule": "BAD001", "severity": "", "message": sprintf("%v", [resp.status_code]), "paths": [], "details": {}}
}
