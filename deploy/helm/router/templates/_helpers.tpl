{{/* Names, labels and images shared by every template. */}}

{{- define "router.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-wide prefix, kept short enough that "<prefix>-<app>" still fits a 63-character DNS label. */}}
{{- define "router.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one app's Deployment and Service. Call with (dict "root" $ "name" "<app>"). */}}
{{- define "router.appFullname" -}}
{{- printf "%s-%s" (include "router.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Every app the chart deploys, put into the dict given as "into": each entry of .Values.apps as it is, and each entry
of .Values.mirrors merged over .Values.mirrorDefaults (the mirror's own keys win; maps merge key by key). A mirror
always reads the ConfigMap. Called for its effect: include "router.collectApps" (dict "root" $ "into" $apps).
*/}}
{{- define "router.collectApps" -}}
{{- $values := .root.Values -}}
{{- $collected := dict -}}
{{- range $name, $app := $values.apps -}}
{{- $_ := set $collected $name (deepCopy $app) -}}
{{- end -}}
{{- range $name, $mirror := $values.mirrors -}}
{{- $_ := set $collected $name (mergeOverwrite (deepCopy $values.mirrorDefaults) (deepCopy $mirror) (dict "sharedConfig" true)) -}}
{{- end -}}
{{- /* The chart-wide settings each app may override key by key, resolved here once for every template. */ -}}
{{- range $name, $app := $collected -}}
{{- range $key := list "autoscaling" "podDisruptionBudget" -}}
{{- $resolved := deepCopy (index $values $key) -}}
{{- include "router.override" (dict "into" $resolved "from" (index $app $key | default dict)) -}}
{{- $_ := set $app $key $resolved -}}
{{- end -}}
{{- $drain := ternary $app.drainSeconds $values.drain.seconds (hasKey $app "drainSeconds") -}}
{{- $_ := set $app "drainSeconds" $drain -}}
{{- if not (hasKey $app "terminationGracePeriodSeconds") -}}
{{- $_ := set $app "terminationGracePeriodSeconds" (add $drain $values.drain.marginSeconds) -}}
{{- else if le (int $app.terminationGracePeriodSeconds) (int $drain) -}}
{{- fail (printf "%s: terminationGracePeriodSeconds %v must be above its drain time (%v s), or Kubernetes kills it while it drains" $name $app.terminationGracePeriodSeconds $drain) -}}
{{- end -}}
{{- /* The replicas it never goes below: a PodDisruptionBudget is worth having only above one. */ -}}
{{- $_ := set $app "minReplicas" (ternary $app.autoscaling.minReplicas $app.replicas $app.autoscaling.enabled) -}}
{{- $_ := set $.into $name $app -}}
{{- end -}}
{{- end -}}

{{/*
Sets every key of "from" in the dict "into", maps key by key; unlike Sprig's merges, a false, 0 or empty value
given wins too. Called for its effect: include "router.override" (dict "into" $dict "from" $overrides).
*/}}
{{- define "router.override" -}}
{{- $into := .into -}}
{{- range $key, $value := .from -}}
{{- if and (kindIs "map" $value) (kindIs "map" (index $into $key)) -}}
{{- include "router.override" (dict "into" (index $into $key) "from" $value) -}}
{{- else -}}
{{- $_ := set $into $key $value -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The selector labels of every pod of the release (all apps). */}}
{{- define "router.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "router.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* One app's metadata labels. Call with (dict "root" $ "name" "<app>"). */}}
{{- define "router.appLabels" -}}
{{ include "router.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* The gateway's variable for a mirror app's URL: mirror-vendor-c -> MIRROR_VENDOR_C_URL. Call with the app's name. */}}
{{- define "router.mirrorUrlVariable" -}}
{{- printf "%s_URL" (. | upper | replace "-" "_") -}}
{{- end -}}

{{- define "router.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "router.labels" -}}
helm.sh/chart: {{ include "router.chart" . }}
app.kubernetes.io/name: {{ include "router.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: router
{{- end -}}

{{/* Selector labels of one app. Call with (dict "root" $ "name" "<app>"); never change them on a live release. */}}
{{- define "router.selectorLabels" -}}
app.kubernetes.io/name: {{ include "router.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* "<registry>/<repository>:<tag>"; the tag falls back to global.image.tag, then appVersion. Call with (dict "root" $ "image" <image values>). */}}
{{- define "router.image" -}}
{{- $global := .root.Values.global.image -}}
{{- $repository := .image.repository -}}
{{- if $global.registry -}}
{{- $repository = printf "%s/%s" (trimSuffix "/" $global.registry) $repository -}}
{{- end -}}
{{- $tag := .image.tag | default $global.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}

{{- define "router.pullPolicy" -}}
{{- .image.pullPolicy | default .root.Values.global.image.pullPolicy -}}
{{- end -}}

{{- define "router.configMapName" -}}
{{- printf "%s-config" (include "router.fullname" .) -}}
{{- end -}}

{{/* One env entry reading a variable from the existing Secret. Call with (dict "root" $ "name" "<VAR>" "optional" bool). */}}
{{- define "router.secretEnvVar" -}}
{{- $key := index .root.Values.secrets.keys .name | default "" -}}
{{- if not $key -}}
{{- fail (printf "secrets.keys has no entry for %s" .name) -}}
{{- end -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .root.Values.secrets.existingSecret }}
      key: {{ $key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end -}}

{{/* Pod and container hardening shared by the apps and the migration Job: the image's `node` user, no root. */}}
{{- define "router.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "router.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}
