"""`azllm sagemaker submit/status`: the CreateTrainingJob request of the published setup, and a submission to a local endpoint."""
import io, json, os, tarfile, contextlib
import pytest
from conftest import ROOT
from azllm.core import AzllmError
from azllm.cli import main

ROLE = 'arn:aws:iam::123456789012:role/SageMakerRole'
PHASE1 = 'configs/cpt_llama-3.2-1b_2x8gpu_phase1.yml'


@pytest.fixture
def in_repo(monkeypatch): monkeypatch.chdir(ROOT)


def cli(capsys, *argv):
    rc = main(list(map(str, argv)))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_dry_run_request_of_the_published_setup(in_repo, capsys, monkeypatch):
    for k in ('AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', 'AWS_ENDPOINT_URL'): monkeypatch.delenv(k, raising=False)
    rc, out, err = cli(capsys, 'sagemaker', 'submit', PHASE1, 'train_data=[/opt/ml/input/data/train]', '--input', 'train=s3://my-bucket/az-corpus/',
                       '--instance-type', 'ml.p4d.24xlarge', '--instance-count', 2, '--role', ROLE, '--output', 's3://my-bucket/azllm/',
                       '--spot', '--max-run', 86400, '--max-wait', 172800, '--region', 'us-west-2', '--job-name', 'azllm-1b-p1', '--dry-run')
    assert rc == 0, err
    req = json.loads(out)
    assert req['TrainingJobName'] == 'azllm-1b-p1' and req['RoleArn'] == ROLE
    assert req['ResourceConfig'] == {'InstanceType': 'ml.p4d.24xlarge', 'InstanceCount': 2, 'VolumeSizeInGB': 500}
    assert req['CheckpointConfig'] == {'S3Uri': 's3://my-bucket/azllm/checkpoints', 'LocalPath': '/opt/ml/checkpoints'}
    assert req['OutputDataConfig'] == {'S3OutputPath': 's3://my-bucket/azllm'}
    assert req['EnableManagedSpotTraining'] is True
    assert req['StoppingCondition'] == {'MaxRuntimeInSeconds': 86400, 'MaxWaitTimeInSeconds': 172800}
    alg = req['AlgorithmSpecification']
    assert alg['TrainingImage'] == '763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.8.0-gpu-py312'
    assert alg['TrainingInputMode'] == 'File' and alg['ContainerEntrypoint'] == ['/bin/bash', '-c']
    assert alg['ContainerArguments'][0].endswith('exec python -m azllm.sagemaker') and 'tar xzf azllm-src.tar.gz' in alg['ContainerArguments'][0]
    channels = {c['ChannelName']: c['DataSource']['S3DataSource'] for c in req['InputDataConfig']}
    assert channels['code']['S3Uri'] == 's3://my-bucket/azllm/azllm-1b-p1/code/'
    assert channels['train'] == {'S3DataType': 'S3Prefix', 'S3Uri': 's3://my-bucket/az-corpus', 'S3DataDistributionType': 'FullyReplicated'}
    # the distribution: azllm train under torchrun on every instance (node ranks from SageMaker's host list)
    hp = req['HyperParameters']
    assert set(hp) == {'azllm_runs', 'azllm_launcher'} and hp['azllm_launcher'] == 'torchrun'
    assert all(isinstance(v, str) for v in hp.values())                  # SageMaker hyperparameters are strings
    (run,) = json.loads(hp['azllm_runs'])
    assert run['config'] == 'job/1_cpt_llama-3.2-1b_2x8gpu_phase1.yml'
    assert run['overrides'] == ['train_data=[/opt/ml/input/data/train]',
                                'output_dir=/opt/ml/checkpoints/runs/cpt-1b-az100k-2x8/phase1',
                                'checkpoint_dir=/opt/ml/checkpoints/runs/cpt-1b-az100k-2x8/phase1/checkpoints',
                                'tokenizer=/opt/ml/checkpoints/runs/tokenizer-az-100k']     # an earlier job's output, restored from S3


def test_phase2_finds_phase1_under_the_checkpoint_location(in_repo):
    from azllm.sagemaker import plan_runs
    runs, files = plan_runs([PHASE1, PHASE1.replace('phase1', 'phase2'), 'train_data=[/opt/ml/input/data/train]'])
    assert 'model=/opt/ml/checkpoints/runs/cpt-1b-az100k-2x8/phase1/final' in runs[1]['overrides']
    assert 'data_samples/az_valid.txt' in files                          # local inputs travel in the bundle


def test_submit_errors(in_repo):
    from azllm.sagemaker import submit
    with pytest.raises(AzllmError, match='does not exist here'): submit([PHASE1], ROLE, 's3://bkt/p', region='us-east-1', dry_run=True)
    ok = [PHASE1, 'train_data=[/opt/ml/input/data/train]']
    with pytest.raises(AzllmError, match='IAM role ARN'): submit(ok, 'my-role', 's3://bkt/p', region='us-east-1', dry_run=True)
    with pytest.raises(AzllmError, match='S3 URI'): submit(ok, ROLE, 'b/p', region='us-east-1', dry_run=True)
    with pytest.raises(AzllmError, match='--max-wait'):
        submit(ok, ROLE, 's3://bkt/p', region='us-east-1', spot=True, max_run=100, max_wait=10, dry_run=True)
    with pytest.raises(AzllmError, match='pass --image'): submit(ok, ROLE, 's3://bkt/p', region='xx-none-1', dry_run=True)
    with pytest.raises(AzllmError, match='one job per config'):
        submit(ok + [PHASE1.replace('phase1', 'phase2')], ROLE, 's3://bkt/p', instance_count=2, region='us-east-1', dry_run=True)


def test_without_boto3_one_line_names_the_extra(monkeypatch):
    import builtins, azllm.sagemaker
    real = builtins.__import__
    monkeypatch.setattr(builtins, '__import__', lambda n, *a, **k: (_ for _ in ()).throw(ImportError(n)) if n == 'boto3' else real(n, *a, **k))
    with pytest.raises(AzllmError, match=r"pip install 'azllm\[sagemaker\]'"): azllm.sagemaker._boto3()


def test_inside_the_job_every_instance_runs_azllm_train_under_torchrun(tmp_path, capsys, in_repo):
    from azllm.sagemaker import job_main
    runs = [dict(config='configs/cpt_tiny_base.yml', overrides=['max_steps=3', 'output_dir=/opt/ml/checkpoints/runs/t'])]
    cfg = tmp_path/'input'/'config'; cfg.mkdir(parents=True)
    (cfg/'resourceconfig.json').write_text(json.dumps(dict(current_host='algo-2', hosts=['algo-1', 'algo-2'])))
    (cfg/'hyperparameters.json').write_text(json.dumps(dict(azllm_runs=json.dumps(runs), azllm_launcher='torchrun')))
    assert job_main(tmp_path, dry_run=True, run=main) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith('azllm: algo-2 (node 1 of 2)')
    cmd = out[1].split()
    assert cmd[0].endswith('torchrun') or 'torch.distributed.run' in cmd
    assert ' '.join(cmd[cmd.index('--nnodes'):]) == ('--nnodes 2 --node_rank 1 --master_addr algo-1 --master_port 29500 '
                                                     '-m azllm.cli train configs/cpt_tiny_base.yml max_steps=3 output_dir=/opt/ml/checkpoints/runs/t')


def test_submit_and_status_against_a_local_endpoint(moto_sagemaker, in_repo, capsys):
    import boto3
    boto3.client('s3').create_bucket(Bucket='azllm-test')
    rc, out, err = cli(capsys, 'sagemaker', 'submit', 'configs/cpt_tiny_base.yml', 'max_steps=3', '--instance-type', 'ml.g5.2xlarge',
                       '--instance-count', 2, '--role', ROLE, '--output', 's3://azllm-test/runs', '--spot', '--job-name', 'azllm-tiny-1')
    assert rc == 0, err
    assert 'submitted azllm-tiny-1' in out
    body = boto3.client('s3').get_object(Bucket='azllm-test', Key='runs/azllm-tiny-1/code/azllm-src.tar.gz')['Body'].read()
    names = tarfile.open(fileobj=io.BytesIO(body)).getnames()
    assert {'azllm-src/pyproject.toml', 'azllm-src/azllm/cli.py', 'azllm-src/job/1_cpt_tiny_base.yml', 'azllm-src/data_samples/az_train.txt'} <= set(names)
    rc, out, err = cli(capsys, 'sagemaker', 'status', 'azllm-tiny-1', '--json')
    assert rc == 0, err
    job = json.loads(out)
    assert job['TrainingJobName'] == 'azllm-tiny-1'
    assert job['ResourceConfig']['InstanceCount'] == 2 and job['ResourceConfig']['InstanceType'] == 'ml.g5.2xlarge'
    assert job['CheckpointConfig']['S3Uri'] == 's3://azllm-test/runs/checkpoints'
    assert json.loads(job['HyperParameters']['azllm_runs'])[0]['config'] == 'job/1_cpt_tiny_base.yml'
    rc, out, _ = cli(capsys, 'sagemaker', 'status', 'azllm-tiny-1')
    assert rc == 0 and 'TrainingJobStatus:' in out
    rc, _, err = cli(capsys, 'sagemaker', 'status', 'no-such-job')
    assert rc == 2 and err.startswith('azllm: error: cannot describe training job no-such-job')
