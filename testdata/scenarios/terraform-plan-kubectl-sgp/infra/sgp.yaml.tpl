apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: payments-db
  namespace: ${namespace}
spec:
  podSelector:
    matchLabels:
      app: payments
  securityGroups:
    groupIds:
      - ${sg}
