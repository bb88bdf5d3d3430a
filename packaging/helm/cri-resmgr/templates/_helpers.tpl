{{/* Names, labels, images and the checks of values the schema cannot express. */}}

{{- define "cri-resmgr.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "cri-resmgr.agentName" -}}{{ include "cri-resmgr.fullname" . }}-agent{{- end -}}
{{- define "cri-resmgr.webhookName" -}}{{ include "cri-resmgr.fullname" . }}-webhook{{- end -}}
{{- define "cri-resmgr.nriName" -}}{{ include "cri-resmgr.fullname" . }}-nri{{- end -}}

{{/* Labels of every object; "component" is added by the caller. */}}
{{- define "cri-resmgr.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: include with (list $ "agent"). */}}
{{- define "cri-resmgr.selector" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ $root.Chart.Name }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* The image of one component: include with (list $ .Values.agent.image). */}}
{{- define "cri-resmgr.image" -}}
{{- $root := index . 0 -}}
{{- $image := index . 1 -}}
{{- with $root.Values.imageRegistry }}{{ trimSuffix "/" . }}/{{ end -}}
{{ $image.repository }}:{{ $image.tag | default $root.Chart.AppVersion }}
{{- end -}}

{{/* The agent's config namespace (--config-ns). */}}
{{- define "cri-resmgr.configNamespace" -}}
{{- .Values.agent.configNamespace | default .Release.Namespace -}}
{{- end -}}

{{/* The Secret the webhook's serving certificate is in. */}}
{{- define "cri-resmgr.webhookSecret" -}}
{{- .Values.webhook.tls.secretName | default (printf "%s-tls" (include "cri-resmgr.webhookName" .)) -}}
{{- end -}}

{{/* The DNS names the API server may use for the webhook's Service. */}}
{{- define "cri-resmgr.webhookDnsNames" -}}
{{- $svc := include "cri-resmgr.webhookName" . -}}
{{- $ns := .Release.Namespace -}}
{{- list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.cluster.local" $svc $ns) | toJson -}}
{{- end -}}

{{/*
Mode generate: the CA and the serving certificate as JSON {ca, cert, key} (PEM). On helm upgrade
the Secret of the installed release is reused, so that upgrades keep the certificate (looked up
only then: helm template has no cluster to ask). Computed once per render
and kept in .Release (a map shared by all templates, neither validated nor stored, unlike
.Values), because the Secret, the Deployment's checksum and the caBundle of the
MutatingWebhookConfiguration (separate templates) must all see the same certificate.
*/}}
{{- define "cri-resmgr.generatedTls" -}}
{{- if not (hasKey .Release "criResmgrWebhookTls") -}}
{{- $name := include "cri-resmgr.webhookSecret" . -}}
{{- $old := dict -}}
{{- if .Release.IsUpgrade -}}
{{- $old = lookup "v1" "Secret" .Release.Namespace $name -}}
{{- end -}}
{{- $data := dict -}}
{{- if and $old $old.data (hasKey $old.data "ca.crt") (hasKey $old.data "tls.crt") (hasKey $old.data "tls.key") -}}
{{- $data = dict "ca" (index $old.data "ca.crt" | b64dec) "cert" (index $old.data "tls.crt" | b64dec) "key" (index $old.data "tls.key" | b64dec) -}}
{{- else -}}
{{- $days := int .Values.webhook.tls.validityDays -}}
{{- $ca := genCA (printf "%s-ca" (include "cri-resmgr.webhookName" .)) $days -}}
{{- $dns := include "cri-resmgr.webhookDnsNames" . | fromJsonArray -}}
{{- $cert := genSignedCert (index $dns 2) nil $dns $days $ca -}}
{{- $data = dict "ca" $ca.Cert "cert" $cert.Cert "key" $cert.Key -}}
{{- end -}}
{{- $_ := set .Release "criResmgrWebhookTls" $data -}}
{{- end -}}
{{- toJson .Release.criResmgrWebhookTls -}}
{{- end -}}

{{/* The caBundle of the MutatingWebhookConfiguration; empty with cert-manager, which injects it. */}}
{{- define "cri-resmgr.caBundle" -}}
{{- $tls := .Values.webhook.tls -}}
{{- if eq $tls.mode "generate" -}}
{{- (include "cri-resmgr.generatedTls" . | fromJson).ca | b64enc -}}
{{- else if eq $tls.mode "secret" -}}
{{- if not $tls.secretName -}}
{{- fail "webhook.tls.secretName is empty: with webhook.tls.mode=secret, name the kubernetes.io/tls Secret (keys tls.crt and tls.key) in the release's namespace; see docs/helm.md" -}}
{{- end -}}
{{- if not $tls.caBundle -}}
{{- fail "webhook.tls.caBundle is empty: with webhook.tls.mode=secret, give the base64 of the PEM CA certificate that signed the Secret's certificate (create-webhook-secret.sh writes it to values.yaml); see docs/helm.md" -}}
{{- end -}}
{{- if not (contains "-----BEGIN CERTIFICATE-----" (b64dec $tls.caBundle)) -}}
{{- fail (printf "webhook.tls.caBundle %q is not the base64 of a PEM certificate (-----BEGIN CERTIFICATE-----...): encode the CA file with base64 -w0" (trunc 40 $tls.caBundle)) -}}
{{- end -}}
{{- $tls.caBundle -}}
{{- end -}}
{{- end -}}

{{/* A ConfigMap's data: each section as YAML text, given as text or as a map. */}}
{{- define "cri-resmgr.configData" -}}
{{- $data := dict -}}
{{- range $section, $value := . -}}
{{- $_ := set $data $section (kindIs "string" $value | ternary $value (toYaml $value)) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* Fails unless a group or node name can end a ConfigMap name. */}}
{{- define "cri-resmgr.checkConfigName" -}}
{{- $field := index . 0 -}}
{{- $name := index . 1 -}}
{{- $full := index . 2 -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$" $name) -}}
{{- fail (printf "%s: %q cannot end a ConfigMap name (%s): use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit" $field $name $full) -}}
{{- end -}}
{{- if gt (len $full) 253 -}}
{{- fail (printf "%s: ConfigMap name %s is %d characters long, at most 253 are allowed" $field $full (len $full)) -}}
{{- end -}}
{{- end -}}

{{/* The directory of nri.socket, mounted from the host; fails unless the socket is an absolute
path below some directory. */}}
{{- define "cri-resmgr.nriSocketDir" -}}
{{- $socket := .Values.nri.socket -}}
{{- if not (regexMatch "^(/[^/]+)+/[^/]+$" $socket) -}}
{{- fail (printf "nri.socket: %q is not an absolute path of a socket below a directory other than /, e.g. /var/run/nri/nri.sock (the directory is mounted from the host)" $socket) -}}
{{- end -}}
{{- dir $socket -}}
{{- end -}}
