package eni.rules.bomb

import rego.v1

n := count(numbers.range(1, 1000000000))
