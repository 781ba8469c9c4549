{{/*
Names and labels. The test's renderer (tests/e2e/kubernetes_check.mjs) knows only the template
constructs these files use; see its header before adding another.
*/}}
{{- define "platform.fullname" -}}
{{- .Release.Name -}}
{{- end -}}

{{- define "platform.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "platform.labels" -}}
{{ include "platform.selectorLabels" . }}
app.kubernetes.io/component: host
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{- define "platform.secretName" -}}
{{- if .Values.secret.existingSecret -}}
{{- .Values.secret.existingSecret -}}
{{- else -}}
{{- include "platform.fullname" . -}}
{{- end -}}
{{- end -}}
