package io.criresmgr.agent;

import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a set of RBAC objects grants one service account, decided as the API server's RBAC
 * authorizer does for resource requests: a ClusterRole bound by a ClusterRoleBinding grants
 * everywhere; a Role (or ClusterRole) bound by a RoleBinding grants in the binding's namespace.
 */
final class RbacGrants {
  /** One API request of the agent: {@code verb} on {@code resource} (with subresource). */
  record ApiCall(String group, String resource, String verb, @Nullable String namespace) {
    ApiCall {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(resource, "resource");
      Objects.requireNonNull(verb, "verb");
    }

    @Override
    public String toString() {
      String where = namespace == null ? "cluster-wide" : "in namespace " + namespace;
      return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + " " + where;
    }
  }

  private record Scoped(@Nullable String namespace, V1PolicyRule rule) {}

  private final List<Scoped> rules = new ArrayList<>();

  /** The grants of {@code objects} (any manifests; non-RBAC ones are skipped) to the account. */
  RbacGrants(List<Object> objects, String accountNamespace, String accountName) {
    for (Object o : objects) {
      if (o instanceof V1ClusterRoleBinding b
          && bindsAccount(b.getSubjects(), accountNamespace, accountName)) {
        addClusterRole(objects, b.getRoleRef().getName(), null);
      } else if (o instanceof V1RoleBinding b
          && bindsAccount(b.getSubjects(), accountNamespace, accountName)) {
        String ns = b.getMetadata().getNamespace();
        if ("ClusterRole".equals(b.getRoleRef().getKind())) {
          addClusterRole(objects, b.getRoleRef().getName(), ns);
        } else {
          addRole(objects, b.getRoleRef().getName(), ns);
        }
      }
    }
  }

  /** Every rule that applies, for checks of what is granted beyond the calls. */
  List<V1PolicyRule> rules() {
    return rules.stream().map(Scoped::rule).toList();
  }

  /** Whether {@code call} is allowed. */
  boolean allows(ApiCall call) {
    for (Scoped s : rules) {
      boolean inScope = s.namespace() == null || s.namespace().equals(call.namespace());
      if (inScope && matches(s.rule(), call)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(V1PolicyRule rule, ApiCall call) {
    return covers(rule.getApiGroups(), call.group())
        && covers(rule.getResources(), call.resource())
        && covers(rule.getVerbs(), call.verb())
        && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty());
  }

  private static boolean covers(@Nullable List<String> values, String wanted) {
    return values != null && (values.contains(wanted) || values.contains("*"));
  }

  private static boolean bindsAccount(
      @Nullable List<RbacV1Subject> subjects, String namespace, String name) {
    if (subjects == null) {
      return false;
    }
    return subjects.stream()
        .anyMatch(
            s ->
                "ServiceAccount".equals(s.getKind())
                    && name.equals(s.getName())
                    && namespace.equals(s.getNamespace()));
  }

  private void addClusterRole(List<Object> objects, String name, @Nullable String namespace) {
    for (Object o : objects) {
      if (o instanceof V1ClusterRole r && name.equals(r.getMetadata().getName())) {
        r.getRules().forEach(rule -> rules.add(new Scoped(namespace, rule)));
      }
    }
  }

  private void addRole(List<Object> objects, String name, @Nullable String namespace) {
    for (Object o : objects) {
      if (o instanceof V1Role r
          && name.equals(r.getMetadata().getName())
          && Objects.equals(namespace, r.getMetadata().getNamespace())) {
        r.getRules().forEach(rule -> rules.add(new Scoped(namespace, rule)));
      }
    }
  }
}
