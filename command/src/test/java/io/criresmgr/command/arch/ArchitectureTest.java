package io.criresmgr.command.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

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
 * daemon away from the simulator and every shipped module away from the test kit, and keep each
 * core module free of package cycles, its root package (the SPI) included. They run here, in module
 * command, the one module that sees every other.
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
  void theCacheDependsOnNoOtherModuleOfOurs() {
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

  @Test
  void thePackagesOfEachCoreModuleAreFreeOfCyclesRootIncluded() {
    for (String module : new String[] {"cache", "policy", "controllers"}) {
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
