schedule: "*/10 * * * *"
%{ if irsa }
serviceAccount:
  annotations:
    eks.amazonaws.com/role-arn: ${role_arn}
%{ else }
serviceAccount: {}
%{ endif }
teams:
%{ for team in teams ~}
  - ${team}
%{ endfor ~}
