import torch, tilegemm
a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
d = tilegemm.matmul(a, b)  # D = A·B in bf16 on the current stream; torch.matmul within twice the bound:
assert ((d.double() - (a @ b).double()).abs() <= 2 * tilegemm.error_bound(a, b)).all()
