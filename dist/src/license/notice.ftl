<#-- The distribution's NOTICE (dist/pom.xml, docs/building.md): the text of the repository's
     NOTICE, then every jar in lib/ with the licences its pom declares. DistributionIT checks
     both halves against the NOTICE file and lib/. -->
cri-resmgr for Java
Copyright 2026 The cri-resmgr for Java authors

Licensed under the Apache License, Version 2.0; the full text is in the file LICENSE.

This product is a drop-in successor of Intel's cri-resource-manager (Apache License,
Version 2.0). Its CRI protocol definition (runtime.v1) follows the Kubernetes project's
k8s.io/cri-api (Copyright The Kubernetes Authors, Apache License, Version 2.0).

The directory lib/ holds these ${dependencyMap?size} jars, each under the licences its pom declares
(groupId:artifactId:version: licences; a jar named with a classifier shares its entry):

<#list dependencyMap as e>
<#assign p = e.getKey()/>
${p.groupId}:${p.artifactId}:${p.version}: ${e.getValue()?join("; ")}
</#list>
