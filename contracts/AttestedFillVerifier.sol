// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {IFillVerifier} from "./interfaces/IFillVerifier.sol";

/// @title AttestedFillVerifier: a fill counts when a fixed attester key signed it.
/// @notice This is Switchyard's one explicit trust assumption: the attester (its own key and process, never
/// the relayer's) signs only fills it saw in the destination settler's `Filled` logs. The EIP-712 domain is
/// this verifier on the origin chain, so a signature is valid for one origin chain and one verifier only.
contract AttestedFillVerifier is IFillVerifier, EIP712 {
    /// @notice EIP-712 type of what the attester signs.
    bytes32 public constant FILL_ATTESTATION_TYPEHASH = keccak256(
        "FillAttestation(uint256 originChainId,uint256 destChainId,address destSettler,bytes32 orderId,address filler,address repaymentAddr)"
    );

    /// @notice The only key whose signatures count.
    address public immutable attester;

    /// @notice The attester may not be the zero address.
    error ZeroAttester();

    /// @param attester_ The attester's address.
    constructor(address attester_) EIP712("Switchyard Fill Attestation", "1") {
        if (attester_ == address(0)) revert ZeroAttester();
        attester = attester_;
    }

    /// @notice The EIP-712 digest the attester signs for a fill (origin chain = this chain).
    /// @param destChainId The destination chain.
    /// @param destSettler The destination settler.
    /// @param orderId The order id.
    /// @param filler Who filled.
    /// @param repaymentAddr Where the filler is repaid.
    /// @return The digest.
    function attestationDigest(
        uint256 destChainId,
        address destSettler,
        bytes32 orderId,
        address filler,
        address repaymentAddr
    ) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                FILL_ATTESTATION_TYPEHASH, block.chainid, destChainId, destSettler, orderId, filler, repaymentAddr
            )
        );
        return _hashTypedDataV4(structHash);
    }

    /// @inheritdoc IFillVerifier
    /// @dev proof = abi.encode(address filler, bytes signature).
    function verifyFill(
        uint256 destChainId,
        address destSettler,
        bytes32 orderId,
        address repaymentAddr,
        bytes calldata proof
    ) external view returns (bool valid, address filler) {
        bytes memory signature;
        (filler, signature) = abi.decode(proof, (address, bytes));
        bytes32 digest = attestationDigest(destChainId, destSettler, orderId, filler, repaymentAddr);
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(digest, signature);
        valid = err == ECDSA.RecoverError.NoError && signer == attester;
    }
}
