{{- define "billing.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
{{- end }}
