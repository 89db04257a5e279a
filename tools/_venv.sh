# Shared by tools/demo.sh and tools/test.sh: create .venv if absent and install argue-eval into it.
# Usage: ensure_venv EXTRAS   (EXTRAS: a comma list such as "test" or "all,test", or empty for the core)
# Reinstalls only when setup.cfg or the requested extras changed since the last install (a stamp file
# in .venv records them), so the second run of either script starts at once.

ensure_venv() {
    local extras="$1"
    local python="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || {
            echo "argue-eval needs Python 3.10 or newer; set PYTHON=/path/to/python3.x" >&2; exit 2; }
        echo "Creating .venv with $("$python" --version)..." >&2
        "$python" -m venv .venv
    fi
    local spec="."
    [ -n "$extras" ] && spec=".[$extras]"
    local stamp=".venv/.argue-eval-installed"
    local want
    want="$(cat setup.cfg pyproject.toml | cksum | cut -d" " -f1) $extras"  # cksum: POSIX, also on macOS
    if [ ! -f "$stamp" ] || ! grep -qxF -- "$want" "$stamp"; then
        echo "Installing argue-eval${extras:+ with extras [$extras]} into .venv (log: .venv/install.log)..." >&2
        {
            .venv/bin/python -m pip install --upgrade pip &&
            # torch==2.13.0 is the CPU build; naming it first keeps pip from pulling CUDA wheels for the extras.
            case ",$extras," in
                *,all,*|*,nli,*|*,dense,*) .venv/bin/python -m pip install "torch==2.13.0" ;;
            esac &&
            .venv/bin/python -m pip install -e "$spec"
        } > .venv/install.log 2>&1 || {
            tail -n 30 .venv/install.log >&2
            echo "installation failed; the whole log is in .venv/install.log" >&2
            exit 1
        }
        echo "$want" >> "$stamp"
    fi
}
