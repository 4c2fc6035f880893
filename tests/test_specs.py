"""Model specs and the errors a user can cause with them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from longread.errors import MissingAPIKeyError, ModelSpecError
from longread.llm.pricing import cost_usd
from longread.llm.specs import ClientOptions, check_spec, resolve_model


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch):
    for name in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_ENDPOINT",
        "OPENAI_API_VERSION",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    "spec", ["gpt-4o", "foo:bar", "openai:", "local:no-such-model", "local:/nope.gguf"]
)
def test_unknown_specs(spec):
    with pytest.raises(ModelSpecError):
        resolve_model(spec)
    with pytest.raises(ModelSpecError):
        check_spec(spec)


@pytest.mark.parametrize(
    "spec, needs",
    [
        ("openai:gpt-4o-mini", "OPENAI_API_KEY"),
        ("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
        ("azure:my-deployment", "AZURE_OPENAI_ENDPOINT"),
    ],
)
def test_missing_keys_name_the_variable(spec, needs):
    with pytest.raises(MissingAPIKeyError, match=needs):
        resolve_model(spec)
    with pytest.raises(MissingAPIKeyError, match=needs):
        check_spec(spec)


CHECK_THEN_PRELOAD = """
import sys, time
from longread.llm.specs import check_spec, preload
check_spec("openai:gpt-4o-mini")
check_spec("local")
checked = "openai" in sys.modules
preload("openai:gpt-4o-mini")
deadline = time.monotonic() + 60
chat = "openai.resources.chat.completions"  # what the first request would import
while chat not in sys.modules or not hasattr(sys.modules[chat], "Completions"):
    assert time.monotonic() < deadline
    time.sleep(0.01)
print(checked)
"""


def test_checking_a_spec_loads_no_sdk_and_preloading_loads_it_and_its_chat_on_a_thread():
    done = subprocess.run(
        [sys.executable, "-c", CHECK_THEN_PRELOAD],
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_environment_and_options_are_honoured(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    lm = resolve_model("openai:gpt-4o-mini")
    assert lm.name == "openai:gpt-4o-mini" and str(lm.client.base_url).startswith(
        "http://127.0.0.1:9"
    )
    override = resolve_model(
        "openai:x", ClientOptions(base_url="http://127.0.0.1:8/v1", api_key="k2")
    )
    assert (
        str(override.client.base_url).startswith("http://127.0.0.1:8")
        and override.client.api_key == "k2"
    )
    anthropic = resolve_model("anthropic:claude-haiku-4-5", ClientOptions(api_key="k"))
    assert anthropic.name == "anthropic:claude-haiku-4-5"


def test_local_default_is_the_bundled_model_and_cannot_write_code():
    lm = resolve_model("local")
    assert lm.name == "local:smollm2-135m" and not lm.writes_code
    assert lm.path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and lm.path.stat().st_size > 90e6


def test_prices():
    assert cost_usd("local:smollm2-135m", 10**6, 10**6) == 0.0
    assert cost_usd("openai:gpt-4o-mini-2024-07-18", 10**6, 0) == pytest.approx(0.15)
    assert cost_usd("openai:some-new-model", 1, 1) is None
