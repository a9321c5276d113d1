"""A fused complex multiply-add step meeting an infinity, against torch 2.13: IEEE's fma
keeps a finite exact product against an infinite addend, where rounding the product
first gives inf - inf = NaN -- for the addend an overflowed product (engine/rng/fp.py's
fma64, complex128 cumprod's accumulator) or a running product's overflowed part
(engine/ops/complex_arith.py's _fused: complex64 prod's and mul's fused steps)."""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

pytestmark = pytest.mark.torch

#: 26 complex64 values (real, imaginary) whose product overflows one part before the end
LONG_CHAIN = [
    [1.3631096251742747e-11, 11.4998140335083], [3.3547056143343896e-20, -94.04010009765625],
    [-0.3862595856189728, 1.401298464324817e-45], [-3.448746063033914e-12,
    -19.003238677978516], [5.405045612860704e-06, 93807.3515625], [0.02686961740255356,
    -1.5776358850416727e-05], [-1671.0968017578125, 1.5246121888500496e-16],
    [0.119521364569664, -8.174998583854176e-06], [-7.070421048638309e-08,
    -4.5200873751392867e-13], [9.770135411422617e-14, 6.851879225675331e-14], [-27844502.0,
    -695446656.0], [0.7665504813194275, -2.5354584493671346e-15], [-1897148.875,
    80063340544.0], [9.529295145398013e-15, -1.1854899488017e-15], [-3.6746499176842917e-07,
    -6883.9140625], [1.401298464324817e-45, -0.41246694326400757], [-0.058730170130729675,
    1.2540492190689367e-13], [-4.667513337636153e-12, -5.124534043637885e-12],
    [-2.176788886946654e-13, -0.00018226861720904708], [-1.15421060362893e-18, 92442525696.0],
    [-5.262064071084069e-16, 8725.29296875], [-2.266134741727414e-17, 1415497088.0],
    [162580584726528.0, -4.180301568553616e-18], [-805402.1875, 4.307681334128553e-20],
    [-971938070528.0, -4630543872.0], [-0.14734962582588196, 1097921080590336.0]]


@pytest.mark.parametrize("statements", [
    # cumprod's complex<double> accumulator, fused: fma(1e300, 1e10, -inf) is -inf
    ["x = torch.tensor([1e300+1e300j, 1e10+1e10j], dtype=torch.complex128)",
     "y = x.cumprod(0)"],
    # the running product's imaginary part overflows to -inf at the 25th element; the
    # fused last step meets it with a finite exact product: inf+infj, not inf+nanj
    [f"x = torch.view_as_complex(torch.tensor({LONG_CHAIN}))", "y = x.prod()"],
    # mul's fused scalar loop (a pair of elements), an operand's part infinite
    ["x = torch.view_as_complex(torch.tensor([[-1.2e38, float('-inf')]] * 2))",
     "y = x * torch.tensor([-0.15+1.1e15j] * 2)"],
])
def test_fused_step_with_an_infinity_is_torchs(statements):
    assert_like_torch(statements)
