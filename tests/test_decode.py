"""The static-cache decoder (azllm.decode) behind `generate.sample_ids`: the same greedy tokens as transformers' `generate`
with its dynamic cache (the path sample_ids took before), for a plain and a LoRA-wrapped model, left-padded prompts of
different lengths and groups of several samples per prompt, each row stopping at its own end of turn. CPU, tiny models."""
import pytest
import torch
from conftest import nudged_peft
from azllm.tokenizer import load_tokenizer
from azllm.chats import check_chat_tokenizer
from azllm.model import load_model
from azllm.generate import sample_ids, stop_ids
from azllm.decode import decoder_for, StaticDecoder


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)

PROMPTS = [[{'role': 'user', 'content': 'Salam, necəsən?'}], [{'role': 'user', 'content': 'Bakı'}],
           [{'role': 'user', 'content': 'Bir qutuda 2 top var. Belə 9 qutuda cəmi neçə top var?'}]]


@pytest.fixture(scope='module')
def tok():
    return check_chat_tokenizer(load_tokenizer())


def prompt_ids(tok):
    return [list(tok.apply_chat_template(m, add_generation_prompt=True, tokenize=True, return_dict=True)['input_ids']) for m in PROMPTS]


def generate_path(model, tok, prompts, n, max_new_tokens, stop):
    "What sample_ids did before the static decoder: transformers' generate (dynamic cache), greedy, masked after each row's stop."
    pad = tok.pad_token_id
    P = max(map(len, prompts))
    ids = torch.tensor([[pad] * (P - len(p)) + p for p in prompts]).repeat_interleave(n, 0)
    am = torch.tensor([[0] * (P - len(p)) + [1] * len(p) for p in prompts]).repeat_interleave(n, 0)
    with torch.no_grad():
        out = model.generate(input_ids=ids, attention_mask=am, max_new_tokens=max_new_tokens, eos_token_id=stop, pad_token_id=pad,
                             do_sample=False, temperature=None, top_p=None, top_k=None, use_cache=True)[:, P:]
    hit = torch.isin(out, torch.tensor(stop)).int()
    after = (hit.cumsum(1) - hit) > 0
    return out.masked_fill(after, pad), (~after).long()


def same(a:tuple, b:tuple):
    "Equal tokens under equal masks (the widths may differ by padding after every row stopped)."
    (x, xm), (y, ym) = a, b
    w = max(x.shape[1], y.shape[1])
    padw = lambda t, v: torch.nn.functional.pad(t, (0, w - t.shape[1]), value=v)
    assert torch.equal(padw(xm, 0), padw(ym, 0)), (xm, ym)
    assert torch.equal(padw(x, 0) * padw(xm, 0), padw(y, 0) * padw(ym, 0)), (x, y)


@pytest.mark.parametrize('wrapped', [False, True])
def test_static_decoder_gives_generates_greedy_tokens(tok, wrapped):
    "Greedy tokens and masks of sample_ids equal generate's, row by row, for a plain and a LoRA (peft) model, 2 samples a prompt."
    model = (nudged_peft(tok) if wrapped else load_model('preset:llama-tiny', tok, seed=0)).eval()
    prompts = prompt_ids(tok)
    assert len({len(p) for p in prompts}) == 3                    # left padding of three different widths
    same(sample_ids(model, tok, prompts, 2, 20, 0.0), generate_path(model, tok, prompts, 2, 20, stop_ids(tok)))


def test_each_row_stops_at_its_own_stop_token(tok):
    "With a token the model does emit made a stop token, rows stop at different steps, as generate's do; the cache is reused across calls."
    model = load_model('preset:llama-tiny', tok, seed=0).eval()
    prompts = prompt_ids(tok)
    free, _ = generate_path(model, tok, prompts, 1, 16, [-5])     # no stop: what each row would write
    stop = [int(free[1, 3])]
    out, mask = decoder_for(model).sample(*_left_pad(tok, prompts), 16, 0.0, 1.0, stop, tok.pad_token_id)
    same((out, mask), generate_path(model, tok, prompts, 1, 16, stop))
    first = [int((r == stop[0]).nonzero()[0]) + 1 if (r == stop[0]).any() else 16 for r in free]
    assert mask.sum(1).tolist() == first and first[1] <= 4
    decoder_for(model).sample(*_left_pad(tok, prompts), 16, 0.0, 1.0, stop, tok.pad_token_id)
    assert len(decoder_for(model).caches) == 1


def _left_pad(tok, prompts):
    P = max(map(len, prompts))
    return (torch.tensor([[tok.pad_token_id] * (P - len(p)) + p for p in prompts]),
            torch.tensor([[0] * (P - len(p)) + [1] * len(p) for p in prompts]))


def test_sampling_is_seeded_and_a_tiny_nucleus_is_greedy(tok):
    "The same seed gives the same samples; top_p small enough keeps only the top token, so it equals greedy decoding."
    model = load_model('preset:llama-tiny', tok, seed=0).eval()
    prompts = prompt_ids(tok)
    torch.manual_seed(1); a = sample_ids(model, tok, prompts, 2, 8, 1.0)
    torch.manual_seed(1); b = sample_ids(model, tok, prompts, 2, 8, 1.0)
    same(a, b)
    same(sample_ids(model, tok, prompts, 1, 8, 1.0, top_p=1e-6), sample_ids(model, tok, prompts, 1, 8, 0.0))


def test_a_failing_compiled_step_falls_back_to_eager(tok):
    "A decode step the compiler cannot run warns once and decodes eagerly, with the same tokens."
    model = load_model('preset:llama-tiny', tok, seed=0).eval()
    prompts = prompt_ids(tok)
    want = StaticDecoder(model, compile=False).sample(*_left_pad(tok, prompts), 6, 0.0, 1.0, [-5], tok.pad_token_id)
    d = StaticDecoder(model, compile=True)
    def broken(*a): raise RuntimeError('no compiler here')
    d._step = broken
    with pytest.warns(UserWarning, match='decoding eagerly'):
        got = d.sample(*_left_pad(tok, prompts), 6, 0.0, 1.0, [-5], tok.pad_token_id)
    same(got, want)


def test_the_harness_generates_through_the_static_decoder_with_the_same_answers(tok):
    "lm-eval's greedy generation (the az_sft_gen task's path) runs through azllm's sampler and gives generate's tokens; a stop string of several tokens keeps lm-eval's own path."
    from lm_eval.models.huggingface import HFLM
    from azllm.harness import harness_lm
    model = load_model('preset:llama-tiny', tok, seed=0).eval()
    lm = harness_lm(model, tok, batch_size=3)
    ctx, _ = lm.tok_batch_encode([tok.decode(p) for p in prompt_ids(tok)])
    stops = ['<|eot_id|>', '<|end_of_text|>']
    ours = lm._model_generate(ctx, ctx.shape[1] + 12, stops, do_sample=False)
    theirs = HFLM._model_generate(lm, ctx, ctx.shape[1] + 12, stops, do_sample=False)
    assert torch.equal(ours[:, :ctx.shape[1]], ctx) and len(decoder_for(model).caches) == 1      # it went through the decoder
    stop = torch.tensor([tok.convert_tokens_to_ids(s) for s in stops])
    for a, b in zip(ours[:, ctx.shape[1]:], theirs[:, ctx.shape[1]:]):      # each row up to its first stop (after it lm-eval cuts the text)
        hit = torch.isin(b, stop).nonzero()
        n = int(hit[0]) + 1 if len(hit) else len(b)
        assert torch.equal(a[:n], b[:n])
    lm2 = harness_lm(load_model('preset:llama-tiny', tok, seed=0).eval(), tok, batch_size=3)
    lm2._model_generate(ctx, ctx.shape[1] + 4, ['\n\nUser:'], do_sample=False)   # several tokens: lm-eval's own path
    assert decoder_for(lm2.model).caches == {}


def test_the_graph_bookkeeping_on_the_cpu_with_a_stand_in_for_cuda_graphs(tok, monkeypatch):
    """What the decoder does around a CUDA graph, checked without one: a stand-in graph records the calls made while capturing and
    runs them again at each replay, reading its inputs then, as a CUDA graph reads memory. The tokens equal plain decoding's, before
    and after an in-place weight update; one capture per cache; a moved weight or another autocast state makes a new capture."""
    import contextlib
    made, capturing = [], []
    class Graph:
        def __init__(self): self.calls = []; made.append(self)
        def replay(self):
            for f in self.calls: f()
    @contextlib.contextmanager
    def graph(g): capturing.append(g); yield; capturing.pop()
    class Stream:
        def wait_stream(self, other): pass
    monkeypatch.setattr(torch.cuda, 'CUDAGraph', Graph); monkeypatch.setattr(torch.cuda, 'graph', graph)
    monkeypatch.setattr(torch.cuda, 'Stream', Stream); monkeypatch.setattr(torch.cuda, 'current_stream', lambda *a: Stream())
    monkeypatch.setattr(torch.cuda, 'stream', lambda s: contextlib.nullcontext())
    model = nudged_peft(tok).eval()
    plain, d = StaticDecoder(model, compile=False), StaticDecoder(model, compile=False)
    d.graph_on = 'cpu'
    def step(*a):                                                            # the step, recorded while capturing
        out = d.forward(*a)
        if capturing: capturing[-1].calls.append(lambda: out.copy_(d.forward(*a)))
        return out
    d._step = step
    args = (*_left_pad(tok, prompt_ids(tok)), 10, 0.0, 1.0, [-5], tok.pad_token_id)
    assert torch.equal(d.sample(*args)[0], plain.sample(*args)[0]) and len(made) == 1
    assert torch.equal(d.sample(*args)[0], plain.sample(*args)[0]) and len(made) == 1      # the cache's graph, replayed again
    with torch.no_grad():
        for n, p in model.named_parameters():
            if 'lora_B' in n: p.mul_(-3.0)
    want = plain.sample(*args)[0]
    assert torch.equal(d.sample(*args)[0], want) and len(made) == 1                        # in place: the same graph, the new weights
    with torch.no_grad():
        for n, p in model.named_parameters():
            if 'lora_A' in n: p.data = p.data * 0.5
    assert torch.equal(d.sample(*args)[0], plain.sample(*args)[0]) and len(made) == 2      # moved: captured again
    with torch.autocast('cpu', dtype=torch.bfloat16):
        d.sample(*args)
    assert len(made) == 3 and len(d.caches) == 2                                          # another autocast state: its own cache and graph
    def refused(g): raise RuntimeError('capture refused')                                 # capture fails after the warm-ups wrote keys
    monkeypatch.setattr(torch.cuda, 'graph', refused)
    e = StaticDecoder(model, compile=False); e.graph_on, e._step = 'cpu', lambda *a: e.forward(*a)   # a step that is not the eager one
    with pytest.warns(UserWarning, match='decoding eagerly'):
        assert torch.equal(e.sample(*args)[0], plain.sample(*args)[0])                     # the cache as the warm-ups found it


@pytest.mark.skipif(not torch.cuda.is_available(), reason='CUDA graphs need a GPU')
def test_the_captured_graph_gives_the_compiled_steps_logits_and_sees_weight_updates(tok):
    """On a GPU the decode step is the compiled step's CUDA graph. Fed the same tokens, its logits equal the compiled step's
    called directly (every weight read afresh), in fp32 and under bf16 autocast; after an in-place update of the LoRA weights
    (what an optimizer step does) and after weights moved, the graph's logits follow the new weights. Logits, not greedy tokens:
    a random model's top two logits are often closer than two compilations' rounding, so its greedy tokens may part."""
    from azllm.decode import cache_length
    model = nudged_peft(tok).cuda().eval()
    ids, am = (x.cuda() for x in _left_pad(tok, prompt_ids(tok)))
    B, P, T = *ids.shape, 12
    feed = torch.randint(0, 1000, (B, T), device='cuda', generator=torch.Generator('cuda').manual_seed(0))
    direct, graph = StaticDecoder(model, compile=True), StaticDecoder(model, compile=True)
    direct.replay = lambda *a: direct._step(*a)                              # the compiled step itself, no graph
    @torch.no_grad()
    def logits(d, autocast=False):                                           # the prefill, then T steps fed the same tokens
        with torch.autocast('cuda', dtype=torch.bfloat16, enabled=autocast):   # (one context a pass: autocast caches its casts of trainable weights)
            return _fed(d)
    def _fed(d):
        L = cache_length(P + T, d.bucket); cache = d.cache(B, L)
        mask = torch.zeros(B, L, dtype=am.dtype, device='cuda'); mask[:, :P] = am
        pos = (am.cumsum(1) - 1).clamp(min=0)
        d.forward(ids, pos, torch.arange(P, device='cuda'), mask, cache)
        d._state, out = (d.state() if d is graph else None), []
        for t in range(T):
            mask[:, P + t] = 1
            out.append(d.step(feed[:, t:t + 1], pos[:, -1:] + 1 + t, torch.tensor([P + t], device='cuda'), mask, cache).clone())
        d._state = None
        return torch.stack(out)
    def scale_B(f):
        with torch.no_grad():
            for n, p in model.named_parameters():
                if 'lora_B' in n: p.mul_(f)                                  # in place: the graph's addresses stay valid
    for autocast, tol in ((False, 1e-4), (True, 3e-2)):
        a, b = logits(direct, autocast), logits(graph, autocast)
        torch.testing.assert_close(b, a, rtol=tol, atol=tol)
        scale_B(-3.0)
        c, d = logits(direct, autocast), logits(graph, autocast)
        moved = (c - a).abs().max()
        assert moved > 10 * tol and (d - c).abs().max() < moved / 10, (autocast, moved)   # the graph follows the new weights
        scale_B(-1 / 3)
    assert all(getattr(c, '_azllm_graph', None) is not None for c in graph.caches.values()) and len(graph.caches) == 2
    with torch.no_grad():
        for n, p in model.named_parameters():
            if 'lora_A' in n: p.data = p.data * 0.5                          # weights moved: a new graph, on the new weights
    torch.testing.assert_close(logits(graph), logits(direct), rtol=1e-4, atol=1e-4)
    now = tuple(p.data_ptr() for p in model.parameters())
    assert [c._azllm_graph[0][3] == now for c in graph.caches.values()] == [False, True]   # the bf16 graph still holds the old addresses
