package io.criresmgr.webhook;

import static io.criresmgr.webhook.WebhookChart.NAMESPACE;
import static io.criresmgr.webhook.WebhookChart.SERVICE;
import static io.criresmgr.webhook.WebhookChart.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The chart's webhook objects (docs/helm.md): the MutatingWebhookConfiguration reaches the Service,
 * the Service the container's port, and the certificate comes from the chosen webhook.tls.mode.
 * WebhookChartIT runs the webhook on what the chart renders.
 */
class WebhookChartTest {
  private static final String CA_PEM =
      "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  private static final String CA_BUNDLE =
      Base64.getEncoder().encodeToString(CA_PEM.getBytes(StandardCharsets.US_ASCII));

  @Test
  void theWebhookConfigurationReachesTheServiceAndTheServiceTheContainer() {
    WebhookChart chart =
        WebhookChart.render(Map.of("webhook.port", "9443", "webhook.service.port", "8000"));
    Map<String, Object> service = chart.only("Service");
    Map<?, ?> port = (Map<?, ?>) at(service, "spec", "ports", 0);
    assertEquals(
        Map.of(
            "name", SERVICE, "namespace", NAMESPACE, "path", "/mutate", "port", port.get("port")),
        at(chart.webhook(), "clientConfig", "service"));
    assertEquals(8000, port.get("port"));
    Map<?, ?> containerPort = (Map<?, ?>) at(chart.container(), "ports", 0);
    assertEquals(port.get("targetPort"), containerPort.get("name"));
    assertEquals(9443, containerPort.get("containerPort"));
    assertTrue(((List<?>) chart.container().get("args")).contains("-port=9443"));
    Map<?, ?> podLabels =
        (Map<?, ?>) at(chart.only("Deployment"), "spec", "template", "metadata", "labels");
    Map<?, ?> selector = (Map<?, ?>) at(service, "spec", "selector");
    assertTrue(podLabels.entrySet().containsAll(selector.entrySet()), selector + " " + podLabels);
  }

  @Test
  void generatedCertificatesAreInTheMountedSecretAndTheCaInTheBundle() {
    WebhookChart chart = WebhookChart.render(Map.of());
    Map<String, Object> secret = chart.only("Secret");
    assertEquals("kubernetes.io/tls", secret.get("type"));
    assertEquals(at(secret, "data", "ca.crt"), at(chart.webhook(), "clientConfig", "caBundle"));
    assertEquals(at(secret, "metadata", "name"), mountedSecret(chart));
    assertEquals(Set.of("ca.crt", "tls.crt", "tls.key"), ((Map<?, ?>) secret.get("data")).keySet());
  }

  @Test
  void aGivenSecretAndCaBundleAreUsedAsTheyAre() {
    WebhookChart chart =
        WebhookChart.render(
            Map.of(
                "webhook.tls.mode",
                "secret",
                "webhook.tls.secretName",
                "mine",
                "webhook.tls.caBundle",
                CA_BUNDLE));
    assertEquals(List.of(), chart.all("Secret"));
    assertEquals(CA_BUNDLE, at(chart.webhook(), "clientConfig", "caBundle"));
    assertEquals("mine", mountedSecret(chart));
  }

  @Test
  void certManagerIssuesTheCertificateFromItsOwnCaAndInjectsTheCa() {
    WebhookChart chart = WebhookChart.render(Map.of("webhook.tls.mode", "certManager"));
    assertEquals(List.of(), chart.all("Secret"));
    assertNull(at(chart.webhook(), "clientConfig", "caBundle"));
    assertEquals(
        Set.of("cri-resmgr-webhook-selfsigned", "cri-resmgr-webhook-ca"),
        names(chart.all("Issuer")));
    Map<String, Object> serving = certificate(chart, "cri-resmgr-webhook");
    assertEquals(
        NAMESPACE + "/cri-resmgr-webhook",
        at(
            chart.only("MutatingWebhookConfiguration"),
            "metadata",
            "annotations",
            "cert-manager.io/inject-ca-from"));
    assertEquals(mountedSecret(chart), at(serving, "spec", "secretName"));
    assertTrue(
        ((List<?>) at(serving, "spec", "dnsNames")).contains(SERVICE + "." + NAMESPACE + ".svc"));
    assertEquals(
        Map.of("kind", "Issuer", "name", "cri-resmgr-webhook-ca"),
        at(serving, "spec", "issuerRef"));
    assertEquals(true, at(certificate(chart, "cri-resmgr-webhook-ca"), "spec", "isCA"));
  }

  @Test
  void certManagerWithAGivenIssuerMakesNoCa() {
    WebhookChart chart =
        WebhookChart.render(
            Map.of(
                "webhook.tls.mode", "certManager",
                "webhook.tls.certManager.issuerRef.kind", "ClusterIssuer",
                "webhook.tls.certManager.issuerRef.name", "corp-ca"));
    assertEquals(List.of(), chart.all("Issuer"));
    assertEquals(
        Map.of("kind", "ClusterIssuer", "name", "corp-ca"),
        at(chart.only("Certificate"), "spec", "issuerRef"));
  }

  @Test
  void theSecretModeNeedsASecretAndACaCertificate() {
    assertTrue(
        error(Map.of("webhook.tls.mode", "secret", "webhook.tls.secretName", "mine"))
            .contains(
                "webhook.tls.caBundle is empty: with webhook.tls.mode=secret, give the base64"));
    assertTrue(
        error(Map.of("webhook.tls.mode", "secret", "webhook.tls.caBundle", CA_BUNDLE))
            .contains("webhook.tls.secretName is empty: with webhook.tls.mode=secret, name the"));
    String notPem =
        Base64.getEncoder().encodeToString("just text".getBytes(StandardCharsets.US_ASCII));
    assertTrue(
        error(
                Map.of(
                    "webhook.tls.mode",
                    "secret",
                    "webhook.tls.secretName",
                    "s",
                    "webhook.tls.caBundle",
                    notPem))
            .contains(
                "webhook.tls.caBundle \"" + notPem + "\" is not the base64 of a PEM certificate"));
    assertTrue(
        error(Map.of("webhook.tls.mode", "vault"))
            .contains(
                "webhook.tls.mode must be one of the following: \"generate\", \"secret\", \"certManager\""));
  }

  private static String error(Map<String, String> values) {
    return assertThrows(RuntimeException.class, () -> WebhookChart.render(values)).getMessage();
  }

  private static Object mountedSecret(WebhookChart chart) {
    return at(
        chart.only("Deployment"), "spec", "template", "spec", "volumes", 0, "secret", "secretName");
  }

  private static Map<String, Object> certificate(WebhookChart chart, String name) {
    return chart.all("Certificate").stream()
        .filter(c -> name.equals(at(c, "metadata", "name")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no Certificate " + name));
  }

  private static Set<Object> names(List<Map<String, Object>> objects) {
    return objects.stream().map(o -> at(o, "metadata", "name")).collect(Collectors.toSet());
  }
}
