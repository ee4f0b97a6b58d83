"""Fused LoRA kernels against peft (fp32, CPU, both tokenizers: outputs, loss, LoRA A/B and input gradients within 1e-5;
`azllm train` with them under DDP and FSDP2 is in test_engine.py), and the bad-input messages of lora_kernels, load_in_4bit and the 8-bit optimizers."""
import copy, pytest, torch, yaml
from conftest import DATA
from azllm.core import AzllmError
from azllm.config import load_config
from azllm.tokenizer import load_tokenizer
from azllm.model import load_model
from azllm.sft import SFTRun, run_sft
from azllm.chats import check_chat_tokenizer
from azllm.lora_kernels import lora_pair, loss_and_grads, apply_lora_kernels

TOL = 1e-5


@pytest.fixture(params=['custom', 'llama3'])
def tok(request, small_tokenizer):
    "Both tokenizers a run can use: a trained one (4,000 tokens + specials) and Llama 3's (128,256)."
    return check_chat_tokenizer(load_tokenizer(str(small_tokenizer) if request.param == 'custom' else None))


def rel(a, b): return ((a - b).abs().max() / b.abs().max()).item()


def test_fused_equals_peft(tok):
    "Same weights, same packed batch (document-local positions): logits, loss and every gradient agree to 1e-5."
    model = load_model('preset:llama-tiny', tok)
    ref, fused, done = lora_pair(model, r=4, alpha=8)
    assert done == dict(mlp=2, qkv=2, o=2)
    torch.manual_seed(1)
    ids = torch.randint(0, len(tok), (2, 49))
    pos = torch.cat([torch.arange(30), torch.arange(18)]).repeat(2, 1)       # two packed documents per row
    outs = {}
    for name, m in (('ref', ref), ('fused', fused)):
        emb = m.get_input_embeddings()(ids[:, :-1]).detach().requires_grad_()
        out = m(inputs_embeds=emb, position_ids=pos, labels=ids[:, 1:], shift_labels=ids[:, 1:].contiguous())
        out.loss.backward()
        outs[name] = dict(logits=out.logits.detach(), loss=out.loss.detach(), input=emb.grad,
                          **{n: p.grad for n, p in m.named_parameters() if p.requires_grad})
    names = [k for k in outs['ref'] if 'lora_' in k]
    assert len(names) == 2 * 7 * 2                      # A and B of 7 projections in 2 layers: all of them have gradients
    for k in outs['ref']: assert rel(outs['fused'][k], outs['ref'][k]) < TOL, k
    fn = fused.base_model.model.model.layers[0].mlp(torch.randn(1, 3, 64, requires_grad=True)).grad_fn
    assert 'LoRASwiGLUMLP' in type(fn).__name__ or 'LoRASwiGLUMLP' in str(fn.next_functions)   # the fused node ran


def test_fallback_when_merged_and_generation(tok):
    "Merged adapters (and generation with a KV cache) go through the modules' own forward, with the same results."
    model = load_model('preset:llama-tiny', tok)
    ref, fused, _ = lora_pair(model, r=4, alpha=8)
    ids = torch.randint(0, len(tok), (1, 12))
    with torch.no_grad():
        g_ref = ref.generate(ids, max_new_tokens=5, do_sample=False, pad_token_id=tok.pad_token_id)
        g_fused = fused.generate(ids, max_new_tokens=5, do_sample=False, pad_token_id=tok.pad_token_id)
        assert torch.equal(g_ref, g_fused)
        l_fused = fused(ids).logits
        fused.merge_adapter()
        assert rel(fused(ids).logits, l_fused) < 1e-4


def test_refuses_what_it_cannot_compute(tok):
    from peft import get_peft_model, LoraConfig
    from transformers import LlamaConfig, LlamaForCausalLM
    biased = LlamaForCausalLM(LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                          num_attention_heads=2, num_key_value_heads=1, attention_bias=True))
    p = get_peft_model(biased, LoraConfig(r=2, target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj'], lora_dropout=0.0))
    with pytest.raises(AzllmError, match='layer 0 q_proj has a bias'): apply_lora_kernels(p)
    model = load_model('preset:llama-tiny', tok)
    p = get_peft_model(model, LoraConfig(r=2, target_modules=['gate_proj', 'up_proj', 'down_proj'], lora_dropout=0.1))
    with pytest.raises(AzllmError, match='LoRA dropout'): apply_lora_kernels(p)


def write(tmp_path, **kw):
    cfg = dict(stage='sft', output_dir=str(tmp_path/'run'), model='preset:llama-tiny', train_data=str(DATA/'sft'/'valid.jsonl'),
               seq_len=128, micro_batch=2, max_steps=3, warmup_steps=1, lora_r=4, lora_alpha=8, log_every=1, save_every=10,
               tensorboard=False, **kw)
    (tmp_path/'c.yml').write_text(yaml.safe_dump(cfg))
    return tmp_path/'c.yml'


def test_config_errors(tmp_path):
    "lora_kernels with dropout or a 4-bit base: one message at the config line; 4-bit and 8-bit optimizers without CUDA: one message."
    with pytest.raises(AzllmError, match=r'c.yml:\d+: lora_kernels: .*needs lora_dropout: 0 \(got 0.05\)'):
        load_config(write(tmp_path, lora_kernels=True, lora_dropout=0.05), SFTRun)
    with pytest.raises(AzllmError, match='with load_in_4bit: true set lora_kernels: false'):
        load_config(write(tmp_path, lora_kernels=True, lora_dropout=0.0, load_in_4bit=True), SFTRun)
    with pytest.raises(AzllmError, match='optimizer'):
        load_config(write(tmp_path, optimizer='adam8'), SFTRun)
    if torch.cuda.is_available(): return
    with pytest.raises(AzllmError, match=r'load_in_4bit: true needs a CUDA GPU and the bitsandbytes package'):
        run_sft(load_config(write(tmp_path, load_in_4bit=True), SFTRun), progress=False)
    assert not (tmp_path/'run').exists()                # nothing half-written
    from azllm.engine import make_optimizer           # what build_engine calls for every stage
    for opt in ('adamw_8bit', 'paged_adamw_8bit'):
        with pytest.raises(AzllmError, match=f'optimizer: {opt} needs a CUDA GPU and the bitsandbytes package'):
            make_optimizer(torch.nn.Linear(2, 2), load_config(write(tmp_path, optimizer=opt), SFTRun), False, 10)


def test_float8_frozen_base_with_kernels(small_tokenizer):
    "precision: fp8's frozen float8 base on the CPU: the MLP is left to peft (its base layers run the float8 matmul), q/k/v and o fuse; loss near fp32's, the same trainable gradients."
    from azllm.lora_kernels import frozen_to_float8
    tok = check_chat_tokenizer(load_tokenizer(str(small_tokenizer)))
    ref = lora_pair(load_model('preset:llama-tiny', tok), r=4, alpha=8)[0]
    f8 = copy.deepcopy(ref)                                         # the same base and adapter weights, not fused yet
    names = frozen_to_float8(f8, rowwise=True, pays=lambda m, n: '.mlp.' in n)
    assert len(names) == 3 * 2 and all(n.endswith('base_layer') for n in names)
    assert set(f8.state_dict()) == set(ref.state_dict())                           # the float8 copies are not saved
    assert apply_lora_kernels(f8) == dict(mlp=0, qkv=2, o=2)
    torch.manual_seed(1)
    ids = torch.randint(0, len(tok), (2, 33))
    (l32, g32), (l8, g8) = loss_and_grads(ref, ids), loss_and_grads(f8, ids, bf16=True)
    assert abs(l8 - l32) / l32 < 2e-2 and set(g8) == set(g32)
    assert all(((g8[k] - g32[k]).norm() / g32[k].norm()) < 0.2 for k in g32)      # float8 rounding of the MLP's inputs and gradients
