#!/usr/bin/env bash
# Makes the TLS material of cri-resmgr-webhook with openssl, nothing downloaded, for the Helm
# chart's webhook.tls.mode=secret (docs/helm.md):
#   <out>/ca.crt, ca.key      a self-signed CA (keep ca.key private or delete it)
#   <out>/svc.crt, svc.key    the webhook's certificate for <service>.<namespace>.svc, signed by the CA
#   <out>/secret.yaml         kubernetes.io/tls Secret <service>-tls with tls.crt, tls.key, ca.crt
#   <out>/values.yaml         the chart's values naming that Secret, with caBundle (the CA, base64)
# Usage: create-webhook-secret.sh [out-dir]   (default ./cri-resmgr-webhook-certs)
# Environment: NAMESPACE (cri-resmgr), SERVICE (cri-resmgr-webhook: <release>-webhook), DAYS (365).
# Then: kubectl create namespace cri-resmgr; kubectl apply -f <out>/secret.yaml
#       helm install cri-resmgr packaging/helm/cri-resmgr -n cri-resmgr -f <out>/values.yaml
set -euo pipefail

out=${1:-./cri-resmgr-webhook-certs}
namespace=${NAMESPACE:-cri-resmgr}
service=${SERVICE:-cri-resmgr-webhook}
days=${DAYS:-365}
cn="$service.$namespace.svc"

command -v openssl >/dev/null || { echo "$0: openssl is needed (apt-get install openssl)" >&2; exit 1; }
umask 077
mkdir -p "$out"
cd "$out"

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" \
  -subj "/CN=cri-resmgr-webhook-ca" -keyout ca.key -out ca.crt 2>/dev/null
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=$cn" \
  -keyout svc.key -out svc.csr 2>/dev/null
cat > svc.ext <<EXT
basicConstraints = CA:FALSE
keyUsage = digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:$service, DNS:$service.$namespace, DNS:$cn, DNS:$cn.cluster.local
EXT
openssl x509 -req -sha256 -days "$days" -in svc.csr -CA ca.crt -CAkey ca.key \
  -CAcreateserial -extfile svc.ext -out svc.crt 2>/dev/null
rm -f svc.csr svc.ext ca.srl

cat > secret.yaml <<YAML
apiVersion: v1
kind: Secret
metadata:
  name: $service-tls
  namespace: $namespace
type: kubernetes.io/tls
data:
  tls.crt: $(base64 -w0 < svc.crt)
  tls.key: $(base64 -w0 < svc.key)
  ca.crt: $(base64 -w0 < ca.crt)
YAML

cat > values.yaml <<YAML
webhook:
  tls:
    mode: secret
    secretName: $service-tls
    caBundle: $(base64 -w0 < ca.crt)
YAML
chmod 0644 ca.crt svc.crt values.yaml

echo "wrote $(pwd): ca.crt ca.key svc.crt svc.key secret.yaml values.yaml"
echo "certificate for $cn valid for $days days"
