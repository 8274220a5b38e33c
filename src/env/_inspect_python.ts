/**
 * The Python program that reads a repository's dependency declarations: standard library only
 * (`tomllib`, `configparser`), run with `-I`, it parses files and never imports or runs anything of
 * the repository. It prints one JSON object (see {@linkcode PythonProject}).
 */

/** What the inspector found in a repository. */
export interface PythonProject {
  /** The project's distribution name (normalized), or null. */
  name: string | null;
  /** PEP 508 requirement strings the tests need, in declaration order, without duplicates. */
  requirements: string[];
  /** Where each group of requirements came from, e.g. `pyproject.toml [project] dependencies`. */
  sources: string[];
  /** Folders (relative) that hold the importable code, e.g. `["src"]`; `"."` is always searched. */
  source_roots: string[];
  /** pytest `addopts` as configured (shell words), and the file it came from. */
  addopts: string[] | null;
  addopts_file: string | null;
  /** Files a build step writes (setuptools-scm and hatch-vcs version files) that do not exist. */
  missing_generated: string[];
  /** `.po` catalogs without a compiled `.mo` beside them. */
  uncompiled_catalogs: string[];
  /** The declared build backend, or null. */
  build_backend: string | null;
  /** Things the reader should know (an unreadable file, a requirement left out). */
  notes: string[];
}

/** The inspector's source; `sys.argv[1]` is the repository. */
export const INSPECT_PYTHON = String.raw`
import configparser, json, os, re, shlex, sys
try:
    import tomllib
except ImportError:
    tomllib = None

repo = sys.argv[1]
out = {"name": None, "requirements": [], "sources": [], "source_roots": [], "addopts": None,
       "addopts_file": None, "missing_generated": [], "uncompiled_catalogs": [],
       "build_backend": None, "notes": []}
TEST_GROUPS = ("test", "tests", "testing", "dev", "develop")

def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()

def req_name(req):
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    return norm(m.group(1)) if m else None

def add(reqs, where):
    added = 0
    for req in reqs:
        if not isinstance(req, str):
            continue
        req = req.strip()
        if not req or req.startswith("#"):
            continue
        name = req_name(req)
        if name is None:
            out["notes"].append(f"{where}: left out {req!r}: not a requirement patchgym can install")
            continue
        if out["name"] and name == out["name"]:
            # The project itself (often with an extra): it is put on the path, never installed.
            m = re.search(r"\[([^\]]*)\]", req)
            for extra in (m.group(1).split(",") if m else []):
                extras.append(extra.strip())
            continue
        if req not in out["requirements"]:
            out["requirements"].append(req)
            added += 1
    if added:
        out["sources"].append(where)

def path(*parts):
    return os.path.join(repo, *parts)

def read_toml(name):
    if tomllib is None or not os.path.isfile(path(name)):
        return None
    try:
        with open(path(name), "rb") as f:
            return tomllib.load(f)
    except Exception as e:
        out["notes"].append(f"{name}: cannot be parsed ({e}); its settings are ignored")
        return None

def read_cfg(name):
    if not os.path.isfile(path(name)):
        return None
    cfg = configparser.ConfigParser(interpolation=None)
    try:
        cfg.read(path(name), encoding="utf-8")
    except Exception as e:
        out["notes"].append(f"{name}: cannot be parsed ({e}); its settings are ignored")
        return None
    return cfg

extras = []
py = read_toml("pyproject.toml") or {}
project = py.get("project", {}) if isinstance(py.get("project"), dict) else {}
tool = py.get("tool", {}) if isinstance(py.get("tool"), dict) else {}
if isinstance(project.get("name"), str):
    out["name"] = norm(project["name"])
setup_cfg = read_cfg("setup.cfg")
if out["name"] is None and setup_cfg is not None and setup_cfg.has_option("metadata", "name"):
    out["name"] = norm(setup_cfg.get("metadata", "name"))
build = py.get("build-system", {})
if isinstance(build, dict) and isinstance(build.get("build-backend"), str):
    out["build_backend"] = build["build-backend"]

add(project.get("dependencies", []) or [], "pyproject.toml [project] dependencies")
optional = project.get("optional-dependencies", {}) or {}
for group in TEST_GROUPS:
    if isinstance(optional.get(group), list):
        add(optional[group], f"pyproject.toml [project.optional-dependencies] {group}")

# PEP 735 dependency groups, with {include-group = "..."} entries.
groups = py.get("dependency-groups", {}) or {}
def group_reqs(name, seen):
    if name in seen or not isinstance(groups.get(name), list):
        return []
    seen.add(name)
    reqs = []
    for item in groups[name]:
        if isinstance(item, str):
            reqs.append(item)
        elif isinstance(item, dict) and isinstance(item.get("include-group"), str):
            reqs.extend(group_reqs(item["include-group"], seen))
    return reqs
for group in TEST_GROUPS:
    if group in groups:
        add(group_reqs(group, set()), f"pyproject.toml [dependency-groups] {group}")

# Poetry: [tool.poetry.dependencies] and the test/dev groups.
poetry = tool.get("poetry", {}) if isinstance(tool.get("poetry"), dict) else {}
def poetry_reqs(table):
    reqs = []
    for name, spec in (table or {}).items():
        if norm(name) == "python":
            continue
        version = spec if isinstance(spec, str) else (spec.get("version") if isinstance(spec, dict) else None)
        if isinstance(version, str) and version not in ("*", ""):
            version = version.strip()
            if version[0] == "^" or version[0] == "~" and not version.startswith("~="):
                version = ">=" + version.lstrip("^~")
            elif version[0].isdigit():
                version = "==" + version
            reqs.append(f"{name}{version}")
        else:
            reqs.append(name)
    return reqs
if poetry:
    add(poetry_reqs(poetry.get("dependencies")), "pyproject.toml [tool.poetry.dependencies]")
    for group in TEST_GROUPS:
        table = ((poetry.get("group") or {}).get(group) or {}).get("dependencies")
        if table:
            add(poetry_reqs(table), f"pyproject.toml [tool.poetry.group.{group}.dependencies]")
    add(poetry_reqs(poetry.get("dev-dependencies")), "pyproject.toml [tool.poetry.dev-dependencies]")

if setup_cfg is not None:
    if setup_cfg.has_option("options", "install_requires"):
        add(setup_cfg.get("options", "install_requires").splitlines(), "setup.cfg install_requires")
    if setup_cfg.has_section("options.extras_require"):
        for group in TEST_GROUPS:
            if setup_cfg.has_option("options.extras_require", group):
                add(setup_cfg.get("options.extras_require", group).splitlines(),
                    f"setup.cfg extras_require {group}")

for extra in extras:
    if isinstance(optional.get(extra), list):
        add(optional[extra], f"pyproject.toml [project.optional-dependencies] {extra}")

# requirements files: the usual names, following -r includes.
def requirement_lines(rel, seen):
    if rel in seen or not os.path.isfile(path(rel)):
        return []
    seen.add(rel)
    reqs = []
    with open(path(rel), encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.split(" #")[0].strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith(("-r ", "--requirement ", "-c ", "--constraint ")):
                inc = line.split(None, 1)[1].strip()
                if line.startswith(("-r", "--requirement")):
                    reqs.extend(requirement_lines(os.path.normpath(os.path.join(os.path.dirname(rel), inc)), seen))
                continue
            if line.startswith(("-e", "--editable", ".")) or line.startswith("-"):
                if line not in ("-e .", "-e.", ".", "--editable ."):
                    out["notes"].append(f"{rel}: left out option line {line!r}")
                continue
            reqs.append(line)
    return reqs
names = []
for top in sorted(os.listdir(repo)):
    low = top.lower()
    if os.path.isfile(path(top)) and low.endswith((".txt", ".in")) and "requirements" in low and \
            not any(w in low for w in ("doc", "lint", "release", "publish", "mypy", "typing")):
        names.append(top)
for folder in ("requirements", "requirements.d"):
    if os.path.isdir(path(folder)):
        for f in sorted(os.listdir(path(folder))):
            low = f.lower()
            if low.endswith((".txt", ".in")) and any(w in low for w in ("base", "test", "dev", "main", "install", "requirements")) \
                    and not any(w in low for w in ("doc", "lint", "mypy", "typing")):
                names.append(folder + "/" + f)
# A compiled .txt beside its .in: the .txt is the pinned one.
names = [n for n in names if not (n.endswith(".in") and n[:-3] + ".txt" in names)]
for rel in names:
    add(requirement_lines(rel, set()), rel)

# Where the code is: setuptools package-dir / find.where, poetry packages, hatch, else src/.
roots = []
st = tool.get("setuptools", {}) if isinstance(tool.get("setuptools"), dict) else {}
pdir = st.get("package-dir")
if isinstance(pdir, dict) and isinstance(pdir.get(""), str):
    roots.append(pdir[""])
pk = st.get("packages")
if isinstance(pk, dict) and isinstance(pk.get("find"), dict):
    where = pk["find"].get("where")
    roots.extend(w for w in (where or []) if isinstance(w, str))
for entry in poetry.get("packages", []) or []:
    if isinstance(entry, dict) and isinstance(entry.get("from"), str):
        roots.append(entry["from"])
hatch_wheel = (((tool.get("hatch") or {}).get("build") or {}).get("targets") or {}).get("wheel") or {}
for p in hatch_wheel.get("packages", []) or []:
    if isinstance(p, str) and "/" in p:
        roots.append(p.rsplit("/", 1)[0])
if setup_cfg is not None and setup_cfg.has_option("options", "package_dir"):
    for line in setup_cfg.get("options", "package_dir").splitlines():
        k, _, v = line.partition("=")
        if k.strip() == "" and v.strip():
            roots.append(v.strip())
if os.path.isdir(path("src")) and not os.path.isfile(path("src", "__init__.py")):
    roots.append("src")
clean = []
for r in roots:
    r = os.path.normpath(r).strip("/")
    if r not in (".", "") and not r.startswith("..") and os.path.isdir(path(r)) and r not in clean:
        clean.append(r)
out["source_roots"] = clean

# pytest configuration, in pytest's own order of precedence.
def addopts_from():
    for name in ("pytest.ini", ".pytest.ini"):
        cfg = read_cfg(name)
        if cfg is not None and cfg.has_section("pytest"):
            return name, cfg.get("pytest", "addopts", fallback="")
    ini = (tool.get("pytest") or {}).get("ini_options") if isinstance(tool.get("pytest"), dict) else None
    if isinstance(ini, dict):
        v = ini.get("addopts", "")
        return "pyproject.toml", " ".join(shlex.quote(x) for x in v) if isinstance(v, list) else str(v)
    cfg = read_cfg("tox.ini")
    if cfg is not None and cfg.has_section("pytest"):
        return "tox.ini", cfg.get("pytest", "addopts", fallback="")
    if setup_cfg is not None and setup_cfg.has_section("tool:pytest"):
        return "setup.cfg", setup_cfg.get("tool:pytest", "addopts", fallback="")
    return None, None
where, addopts = addopts_from()
if addopts is not None:
    try:
        out["addopts"] = shlex.split(addopts)
    except ValueError:
        out["addopts"] = addopts.split()
    out["addopts_file"] = where

# Version files a build step writes.
generated = []
scm = tool.get("setuptools_scm")
if isinstance(scm, dict):
    for key in ("version_file", "write_to"):
        if isinstance(scm.get(key), str):
            generated.append(scm[key])
vcs = ((((tool.get("hatch") or {}).get("build") or {}).get("hooks") or {}).get("vcs")) or {}
if isinstance(vcs.get("version-file"), str):
    generated.append(vcs["version-file"])
out["missing_generated"] = [g for g in generated if not os.path.exists(path(g))]

# Message catalogs that a build step compiles.
for dirpath, dirnames, filenames in os.walk(repo):
    dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
    for f in filenames:
        if f.endswith(".po") and not os.path.exists(os.path.join(dirpath, f[:-3] + ".mo")):
            out["uncompiled_catalogs"].append(os.path.relpath(os.path.join(dirpath, f), repo))
print(json.dumps(out))
`;
