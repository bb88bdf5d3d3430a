package io.criresmgr.command.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Package and module boundaries the compiler does not check (docs/architecture.md, "Modules and
 * boundaries"). Maven keeps a module from importing one it does not declare; these rules keep the
 * core modules away from the daemon's transport even where a dependency would let them in, keep the
 * daemon away from the simulator and every shipped module away from the test kit, keep the daemon's
 * core away from its front ends, and keep each core module free of package cycles, its root package
 * (the SPI) included. They run here, in module command, the one module that sees every other.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TEST_FIXTURES)
            .importPackages("io.criresmgr");
  }

  @Test
  void policiesNeverSeeTheTransportTheDaemonOrTheControllers() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.policy..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.grpc..", "io.netty..", "io.criresmgr.proxy..", "io.criresmgr.controllers..")
        .check(classes);
  }

  @Test
  void controllersNeverSeeTheTransportTheDaemonOrThePolicies() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.controllers..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.grpc..", "io.netty..", "io.criresmgr.proxy..", "io.criresmgr.policy..")
        .check(classes);
  }

  @Test
  void theCacheDependsOnNoOtherModuleOfOursButTheAdjustmentModel() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.cache..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.grpc..",
            "io.netty..",
            "io.criresmgr.api..",
            "io.criresmgr.policy..",
            "io.criresmgr.controllers..",
            "io.criresmgr.proxy..")
        .check(classes);
  }

  @Test
  void theAdjustmentModelDependsOnNothingButTheJdk() {
    // Shared by the agent (Gson) and the daemon (Jackson): docs/adr/0014-one-adjustment-model.md.
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.adjustment..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.not(
                resideInAnyPackage("io.criresmgr.adjustment..", "java..", "org.jspecify..")))
        .check(classes);
  }

  @Test
  void theSimulatedRuntimeAndTheUnixSocketHelperNeedOnlyTheApi() {
    noClasses()
        .that()
        .resideInAnyPackage("io.criresmgr.sim..", "io.criresmgr.grpc.unix..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.criresmgr.proxy..",
            "io.criresmgr.policy..",
            "io.criresmgr.controllers..",
            "io.criresmgr.cache..")
        .check(classes);
  }

  @Test
  void thePolicySpiDependsOnNoPolicy() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.policy")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.criresmgr.policy.none..",
            "io.criresmgr.policy.template..",
            "io.criresmgr.policy.topologyaware..",
            "io.criresmgr.policy.balloons..",
            "io.criresmgr.policy.builtin..")
        .check(classes);
  }

  @Test
  void theDaemonNeverSeesTheSimulator() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.proxy..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.criresmgr.simulator..", "io.criresmgr.command..")
        .check(classes);
  }

  @Test
  void noShippedCodeDependsOnTheTestKit() {
    // Module testkit is not on this class path; a shipped class naming one of its classes is
    // still seen, and would pull the kit into the distribution.
    noClasses()
        .that()
        .resideOutsideOfPackage("io.criresmgr.testkit..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.criresmgr.testkit..")
        .check(classes);
  }

  @Test
  void theControllerSpiDependsOnNoController() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.controllers")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.criresmgr.controllers.*..")
        .check(classes);
  }

  /**
   * What only a front end may use: the CRI front end (the relay and its intercepted service), the
   * NRI front end and its protocol, gRPC's server side and Netty.
   */
  private static final DescribedPredicate<JavaClass> FRONT_END_OR_SERVER =
      resideInAnyPackage(
              "io.criresmgr.proxy.relay..",
              "io.criresmgr.proxy.nri..",
              "io.criresmgr.nri..",
              "io.netty..",
              "io.grpc.netty..",
              "io.grpc.inprocess..",
              "io.grpc.servlet..")
          .or(
              resideInAnyPackage("io.grpc", "io.grpc.stub", "io.grpc.util")
                  .and(
                      simpleNameStartingWith("Server")
                          .or(simpleNameStartingWith("HandlerRegistry"))
                          .or(simpleNameStartingWith("MutableHandlerRegistry"))))
          .as("a front end (CRI relay, NRI), gRPC's server side or Netty");

  @Test
  void theDaemonsCoreNeverSeesAFrontEndOrTheServerSide() {
    // docs/adr/0012-core-and-front-ends.md: the core is driven by front ends, never the reverse.
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.proxy.core..")
        .should()
        .dependOnClassesThat(FRONT_END_OR_SERVER)
        .check(classes);
  }

  @Test
  void theDaemonsCoreSeesOnlyTheConfigurationOfTheRestOfTheDaemon() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.proxy.core..")
        .should()
        .dependOnClassesThat(
            resideInAnyPackage("io.criresmgr.proxy..")
                .and(
                    DescribedPredicate.not(
                        resideInAnyPackage(
                            "io.criresmgr.proxy.core..", "io.criresmgr.proxy.config.."))))
        .check(classes);
  }

  @Test
  void theFrontEndsNeverSeeEachOther() {
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.proxy.nri..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.criresmgr.proxy.relay..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("io.criresmgr.proxy.relay..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.criresmgr.proxy.nri..", "io.criresmgr.nri..")
        .check(classes);
  }

  @Test
  void thePackagesOfEachCoreModuleAreFreeOfCyclesRootIncluded() {
    for (String module : new String[] {"cache", "policy", "controllers", "proxy.core"}) {
      // Every package its own slice, the module's root package too (the SPI).
      slices()
          .matching("io.criresmgr.(**)")
          .should()
          .beFreeOfCycles()
          .check(
              classes.that(JavaClass.Predicates.resideInAPackage("io.criresmgr." + module + "..")));
    }
  }
}
