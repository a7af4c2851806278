securityGroups:
  create: true
  securityGroupIds: [${security_group_id}]
