#!/usr/bin/env bash
# Makes the TLS material of cri-resmgr-webhook with openssl, nothing downloaded:
#   <out>/ca.crt, ca.key      a self-signed CA (keep ca.key private or delete it)
#   <out>/svc.crt, svc.key    the webhook's certificate for <service>.<namespace>.svc, signed by the CA
#   <out>/secret.yaml         Secret cri-resmgr-webhook-secret with svc.crt and svc.key
#   <out>/mutating-webhook-config.yaml   the webhook configuration with caBundle filled in
# Usage: create-webhook-secret.sh [out-dir]   (default ./cri-resmgr-webhook-certs)
# Environment: NAMESPACE (cri-resmgr), SERVICE (cri-resmgr-webhook), DAYS (365).
# Then: kubectl apply -f webhook-deployment.yaml -f <out>/secret.yaml \
#         -f <out>/mutating-webhook-config.yaml
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
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
  name: cri-resmgr-webhook-secret
  namespace: $namespace
type: Opaque
data:
  svc.crt: $(base64 -w0 < svc.crt)
  svc.key: $(base64 -w0 < svc.key)
YAML

sed -e "/caBundle:/s|CA_BUNDLE_PLACEHOLDER|$(base64 -w0 < ca.crt)|" \
  -e "s|namespace: cri-resmgr|namespace: $namespace|" \
  -e "s|name: cri-resmgr-webhook|name: $service|" \
  "$here/mutating-webhook-config.yaml" > mutating-webhook-config.yaml
chmod 0644 ca.crt svc.crt mutating-webhook-config.yaml

echo "wrote $(pwd): ca.crt ca.key svc.crt svc.key secret.yaml mutating-webhook-config.yaml"
echo "certificate for $cn valid for $days days"
